import t from 'tap';
import { createGroupCommit } from '../../src/eventstore/groupCommit.js';

/** A group commit that records its groups. */
function recordingGroupCommit(maxGroupSize = 256) {
  const groups: string[][] = [];
  const commits = createGroupCommit<string>({ maxGroupSize, commit: (group) => groups.push(group) });
  return { commits, groups };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

t.test('what is added in one turn commits together, on the next turn', async (t) => {
  const { commits, groups } = recordingGroupCommit();
  ['a', 'b', 'c'].forEach(commits.add);
  t.same(groups, [], 'nothing yet');
  await nextTurn();
  t.same(groups, [['a', 'b', 'c']], 'one commit');
});

t.test('a group is at most maxGroupSize; the rest commit right after', async (t) => {
  const { commits, groups } = recordingGroupCommit(2);
  ['a', 'b', 'c', 'd', 'e'].forEach(commits.add);
  await nextTurn();
  t.same(groups, [['a', 'b'], ['c', 'd'], ['e']]);
});

t.test('what is added after a group committed makes the next group', async (t) => {
  const { commits, groups } = recordingGroupCommit();
  commits.add('a');
  await nextTurn();
  commits.add('b');
  commits.add('c');
  await nextTurn();
  t.same(groups, [['a'], ['b', 'c']]);
});

t.test('commitQueued commits at once (closing), and the scheduled turn then finds nothing', async (t) => {
  const { commits, groups } = recordingGroupCommit();
  commits.add('a');
  commits.commitQueued();
  t.same(groups, [['a']]);
  await nextTurn();
  t.same(groups, [['a']]);
});
