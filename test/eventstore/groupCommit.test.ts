import t from 'tap';
import { createGroupCommit, type Outcome } from '../../src/eventstore/groupCommit.js';

/** A group commit whose commits are recorded; a request 'bad' fails on its own, 'boom' fails its group. */
function recordingGroupCommit(maxGroupSize = 256) {
  const groups: string[][] = [];
  let afterCommits = 0;
  const commits = createGroupCommit<string, string>({
    maxGroupSize,
    commit: (group) => {
      if (group.includes('boom')) throw new Error('disk gone');
      groups.push(group);
      return group.map(
        (request): Outcome<string> => (request === 'bad' ? { ok: false, error: new Error(`refused ${request}`) } : { ok: true, result: `done ${request}` }),
      );
    },
    afterCommit: () => {
      afterCommits += 1;
    },
  });
  return { commits, groups, afterCommits: () => afterCommits };
}

t.test('requests made in one turn commit together, each answered with its own outcome', async (t) => {
  const { commits, groups, afterCommits } = recordingGroupCommit();
  const answers = await Promise.allSettled(['a', 'bad', 'c'].map((request) => commits.submit(request)));
  t.same(groups, [['a', 'bad', 'c']], 'one commit');
  t.same(
    answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : (answer.reason as Error).message)),
    ['done a', 'refused bad', 'done c'],
  );
  t.equal(afterCommits(), 1);
});

t.test('a group is at most maxGroupSize requests; the rest commit next', async (t) => {
  const { commits, groups } = recordingGroupCommit(2);
  await Promise.all(['a', 'b', 'c', 'd', 'e'].map((request) => commits.submit(request)));
  t.same(groups, [['a', 'b'], ['c', 'd'], ['e']]);
});

t.test('a commit that throws fails every request of its group, and only that group', async (t) => {
  const { commits, groups } = recordingGroupCommit(2);
  const answers = await Promise.allSettled(['a', 'boom', 'c'].map((request) => commits.submit(request)));
  t.same(
    answers.map((answer) => answer.status),
    ['rejected', 'rejected', 'fulfilled'],
  );
  t.same(groups, [['c']]);
});

t.test('close commits what is queued, then refuses new requests', async (t) => {
  const { commits, groups } = recordingGroupCommit();
  const queued = commits.submit('a');
  commits.close();
  t.equal(await queued, 'done a');
  t.same(groups, [['a']]);
  await t.rejects(commits.submit('b'), /closed/);
});
