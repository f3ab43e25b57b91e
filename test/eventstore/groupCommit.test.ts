import t from 'tap';
import { createGroupCommit, type Outcome } from '../../src/eventstore/groupCommit.js';

/** A group commit whose commits are recorded; a request 'bad' fails on its own, 'boom' fails its group. */
function recordingGroupCommit(maxGroupSize = 256, collectTurns = 0) {
  const groups: string[][] = [];
  let afterCommits = 0;
  const commits = createGroupCommit<string, string>({
    maxGroupSize,
    collectTurns,
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

/** Resolves after `n` turns of the event loop. */
const turns = (n: number) => new Promise<void>((resolve) => (n === 0 ? resolve() : setImmediate(() => turns(n - 1).then(resolve))));

t.test('while writers are concurrent, a group waits collectTurns turns for requests to join it; a lone writer does not wait', async (t) => {
  const { commits, groups } = recordingGroupCommit(256, 5);
  await commits.submit('lone');
  t.same(groups, [['lone']], 'a lone request commits at the next turn');
  await Promise.all([commits.submit('a'), commits.submit('b')]);
  t.same(groups.at(-1), ['a', 'b'], 'two in one turn: writers are concurrent');
  // The next group collects for five more turns: requests made in the third turn still join it.
  const first = commits.submit('c');
  await turns(3);
  const late = commits.submit('d');
  await Promise.all([first, late]);
  t.same(groups.at(-1), ['c', 'd'], 'a request made turns later joined the waiting group');
  const next = commits.submit('e');
  await turns(8);
  const after = commits.submit('f');
  await Promise.all([next, after]);
  t.same(groups.slice(-2), [['e'], ['f']], 'past collectTurns the group committed without it');
});

t.test('a group that waits for more is committed at once when it is full', async (t) => {
  const { commits, groups } = recordingGroupCommit(2, 50);
  await Promise.all([commits.submit('a'), commits.submit('b')]);
  const full = Promise.all([commits.submit('c'), commits.submit('d')]);
  let committed = false;
  void full.then(() => {
    committed = true;
  });
  await turns(3);
  t.ok(committed, 'committed within a few turns, not fifty');
  t.same(groups, [
    ['a', 'b'],
    ['c', 'd'],
  ]);
});
