import t from 'tap';
import {
  initialRunnerState,
  nextRunnerState,
  planBatch,
  type RunnerEffect,
  type RunnerInput,
  type RunnerState,
  subscribeAfter,
} from '../../projections/runnerState.js';
import { recorded } from '../helpers/projectionSpec.js';

const event = (streamId: string, revision: number, position: number) => recorded(streamId, revision, position, { type: 'X', data: '{}' });
const start = (checkpoints: Record<string, number | null>) => initialRunnerState(new Map(Object.entries(checkpoints)));
/** The state after each input in turn, and every effect they asked for, in order. */
function after(state: RunnerState, ...inputs: RunnerInput[]): { state: RunnerState; effects: RunnerEffect[] } {
  const effects: RunnerEffect[] = [];
  for (const input of inputs) {
    const next = nextRunnerState(state, input);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}
const positionsOf = (effects: RunnerEffect[]) => effects.flatMap((effect) => (effect.type === 'apply' ? [effect.batch.events.map((e) => e.position)] : []));
const delivered = (...events: ReturnType<typeof event>[]): RunnerInput => ({ type: 'delivered', events });

t.test('a group subscribes after its earliest stored checkpoint, from the start when one has none', async (t) => {
  t.equal(subscribeAfter(start({ a: 7, b: 3 })), 3);
  t.equal(subscribeAfter(start({ a: 7, b: null })), null);
  t.equal(subscribeAfter(start({})), null, 'no projections: from the start');
});

t.test('the last append of a delivery is held back until more events come', async (t) => {
  const { state, effects } = after(start({ a: null }), delivered(event('s1', 0, 1), event('s1', 1, 2), event('s2', 0, 3)));
  t.same(positionsOf(effects), [[1, 2]], 'the first append is applied');
  t.same(
    state.held.map((e) => e.position),
    [3],
    'the second may go on in the next delivery',
  );
  t.same(effects[0], { type: 'fellBehind' }, 'events came: the group is not caught up');
  const more = after(state, delivered(event('s2', 1, 4), event('s3', 0, 5)));
  t.same(positionsOf(more.effects), [[3, 4]], 'an append cut over two deliveries is applied whole');
});

t.test('caught up, the held append is whole: it is applied before the group is said caught up', async (t) => {
  const { state, effects } = after(start({ a: null }), delivered(event('s1', 0, 1)), { type: 'caughtUp', position: 1 });
  t.same(
    effects.map((effect) => effect.type),
    ['fellBehind', 'apply', 'caughtUp'],
  );
  t.same(positionsOf(effects), [[1]]);
  t.same(state.held, []);
  t.same(after(start({ a: 4 }), { type: 'caughtUp', position: 4 }).effects, [{ type: 'caughtUp', position: 4 }], 'nothing held: nothing to apply');
});

t.test('each projection gets only the events past its checkpoint; one at or past the batch end is left out of the commit', async (t) => {
  const batch = planBatch(start({ behind: null, middle: 2, ahead: 3 }), [event('s', 0, 1), event('s', 1, 2), event('s', 2, 3)]);
  t.same(
    batch?.shares.map((share) => ({ projection: share.projection, positions: share.events.map((e) => e.position), expected: share.expected })),
    [
      { projection: 'behind', positions: [1, 2, 3], expected: null },
      { projection: 'middle', positions: [3], expected: 2 },
    ],
  );
  t.equal(batch?.last.position, 3);
  t.equal(planBatch(start({ a: null }), []), null, 'no events: no batch');
});

t.test('a commit moves the committed projections to the batch end, and only them', async (t) => {
  const state = start({ behind: 1, ahead: 9 });
  const batch = planBatch(state, [event('s', 0, 2), event('s', 1, 3)]);
  if (batch === null) throw new Error('a batch of two events');
  const { state: next, effects } = after(state, { type: 'committed', batch });
  t.same(
    [...next.stored],
    [
      ['behind', 3],
      ['ahead', 9],
    ],
    'a checkpoint never moves back',
  );
  t.same(effects, [{ type: 'reached', projections: ['behind'], position: 3 }]);
  t.same(
    positionsOf(after(next, delivered(event('s', 0, 2), event('s', 1, 3), event('t', 0, 4)), { type: 'caughtUp', position: 4 }).effects),
    [[2, 3], [4]],
    'a later batch is planned from the new checkpoints',
  );
  t.same(planBatch(next, [event('s', 0, 2), event('s', 1, 3)])?.shares, [], 'redelivered events: no projection is behind them');
});

t.test('an unreadable event of another stream ends the held append, which is applied; one of its own stream is not', async (t) => {
  const holding = after(start({ a: null }), delivered(event('s1', 0, 1), event('s2', 0, 2))).state;
  t.same(positionsOf(after(holding, { type: 'unreadable', streamId: 's3' }).effects), [[2]]);
  t.same(after(holding, { type: 'unreadable', streamId: 's2' }).effects, [], 'the append may go on past the unreadable event');
  t.same(after(holding, { type: 'unreadable', streamId: 's3' }).state.held, []);
});

const read = (checkpoints: Record<string, number | null>): RunnerInput => ({ type: 'checkpointsRead', checkpoints: new Map(Object.entries(checkpoints)) });
const tick: RunnerInput = { type: 'watchTick' };

t.test('between batches the watch reads the stored checkpoints, and one another process moved ends the pass', async (t) => {
  const state = start({ a: 5, b: null });
  t.same(after(state, tick).effects, [{ type: 'readCheckpoints', projections: ['a', 'b'] }]);
  const moved = after(state, tick, read({ a: 5, b: 2 }));
  t.same(moved.effects.at(-1), { type: 'checkpointMoved', projection: 'b', checkpoint: 2 }, 'b was started over elsewhere');
  t.same(after(moved.state, tick).effects, [], 'the pass is ending: no more looks');
  const unchanged = after(state, tick, read({ a: 5, b: null }));
  t.same(unchanged.effects, [{ type: 'readCheckpoints', projections: ['a', 'b'] }], 'as stored: nothing to do');
  t.same(after(unchanged.state, tick).effects, [{ type: 'readCheckpoints', projections: ['a', 'b'] }], 'and the next tick looks again');
  t.same(after(state, tick, read({ b: 7 })).effects.at(-1), { type: 'checkpointMoved', projection: 'b', checkpoint: 7 });
  t.same(after(state, tick, read({})).effects.length, 1, 'a read that failed for every projection is no news');
});

t.test('a look that overlaps a batch tells nothing: one under way is not started again, a stale read is dropped', async (t) => {
  const state = start({ a: null });
  t.same(after(state, tick, tick).effects.length, 1, 'one look at a time');
  const delivering = after(state, delivered(event('s1', 0, 1), event('s2', 0, 2)));
  const batch = delivering.effects.flatMap((effect) => (effect.type === 'apply' ? [effect.batch] : []))[0];
  if (batch === undefined) throw new Error('the first append is applied');
  t.same(after(delivering.state, tick).effects, [], 'a batch is being committed: its checkpoint may be stored before it is committed here');
  t.same(
    after(delivering.state, { type: 'committed', batch }, tick).effects.at(-1),
    { type: 'readCheckpoints', projections: ['a'] },
    'once committed, it looks',
  );
  t.same(
    after(state, tick, delivered(event('s1', 0, 1)), read({ a: 1 })).effects,
    [{ type: 'readCheckpoints', projections: ['a'] }, { type: 'fellBehind' }],
    'events came in between: the read is stale',
  );
  const committed = after(delivering.state, tick, { type: 'committed', batch }, read({ a: 1 }));
  t.same(committed.effects.at(-1), { type: 'reached', projections: ['a'], position: 1 }, 'a read that overlapped the commit is dropped');
  t.same(after(committed.state, tick, read({ a: null })).effects.at(-1), { type: 'checkpointMoved', projection: 'a', checkpoint: null }, 'the next look tells');
});

t.test('once the pass is over, a look still under way tells nothing and no other starts', async (t) => {
  const { state, effects } = after(start({ a: 5 }), tick, { type: 'passEnded' }, read({ a: null }), tick);
  t.same(effects, [{ type: 'readCheckpoints', projections: ['a'] }], 'only the look asked before the end');
  t.same(state.watch, { status: 'ended' });
});

t.test('the reducer is pure: the state it was given is unchanged', async (t) => {
  const state = start({ a: null });
  const before = { stored: [...state.stored], held: [...state.held] };
  const { state: holding } = after(state, delivered(event('s', 0, 1)));
  const batch = planBatch(holding, holding.held);
  if (batch === null) throw new Error('a held event');
  after(holding, { type: 'committed', batch }, { type: 'caughtUp', position: 1 });
  t.same({ stored: [...state.stored], held: [...state.held] }, before);
  t.same(
    holding.held.map((e) => e.position),
    [1],
  );
});
