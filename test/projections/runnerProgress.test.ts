import t from 'tap';
import { createProgress } from '../../projections/runnerProgress.js';

t.test('a waiter resolves true once the checkpoint reaches its position, at once when it is there already', async (t) => {
  const progress = createProgress();
  const waiting = progress.waitFor(5, 10_000);
  progress.reach(3);
  progress.reach(5);
  t.equal(await waiting, true);
  t.equal(await progress.waitFor(4, 10_000), true);
  t.equal(progress.checkpoint(), 5);
});

t.test('the checkpoint never moves back by reaching, but a restart takes the stored one as it is', async (t) => {
  const progress = createProgress();
  progress.reach(8);
  progress.reach(6);
  progress.reach(null);
  t.equal(progress.checkpoint(), 8);
  progress.restart(4);
  t.equal(progress.checkpoint(), 4, 'a promoted rebuild may store an earlier checkpoint');
  const waiting = progress.waitFor(4, 10_000);
  t.equal(await waiting, true);
});

t.test('a restart wakes the waiters it reaches', async (t) => {
  const progress = createProgress();
  const early = progress.waitFor(8, 10_000);
  progress.restart(8);
  t.equal(await early, true);
});

t.test('a waiter resolves false after its timeout, or when the runner stops', async (t) => {
  const progress = createProgress();
  t.equal(await progress.waitFor(1, 1), false);
  const stopped = progress.waitFor(2, 10_000);
  progress.release();
  t.equal(await stopped, false);
});
