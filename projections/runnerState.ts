import type { Position, RecordedEvent } from '../src/eventstore/eventStore.js';
import { holdLastAppend } from './appends.js';

/**
 * One pass of a group of projections over the log (from reading their checkpoints until the
 * subscription ends or fails) as a state machine, pure so it is tested without a store
 * (test/projections/runnerState.test.ts); ./runner.ts drives it, ./runnerCommit.ts applies
 * and commits its batches, ./runnerProgress.ts wakes the callers waiting for a checkpoint.
 */
export interface RunnerState {
  /** Each projection's checkpoint as stored, by name: a commit expects it, and earlier events are not applied again. */
  stored: ReadonlyMap<string, Position | null>;
  /** The last append delivered, held back until it is known whole (more events, or caught up). */
  held: readonly RecordedEvent[];
  /** Inputs from the subscription so far: a look at the stored checkpoints started before the last one is stale. */
  fed: number;
  /** Batches handed to the driver and not yet committed: their checkpoints may be stored before `committed` says so. */
  applying: number;
  /** The look at the stored checkpoints between batches: none under way, one since input `since`, or the pass is ending. */
  watch: { status: 'idle' } | { status: 'reading'; since: number } | { status: 'ended' };
}

/** A batch of whole appends to apply, and each projection's share of its commit. */
export interface Batch {
  events: readonly RecordedEvent[];
  last: RecordedEvent;
  /** Projections behind the batch's end, with the events they have not seen; one at or past the end keeps its checkpoint. */
  shares: { projection: string; events: readonly RecordedEvent[]; expected: Position | null }[];
}

export type RunnerInput =
  /** The subscription delivered events (appends may be cut at either end). */
  | { type: 'delivered'; events: readonly RecordedEvent[] }
  /** Everything up to `position` has been delivered. */
  | { type: 'caughtUp'; position: Position | null }
  /** `batch` was applied and committed. */
  | { type: 'committed'; batch: Batch }
  /** The log holds an event of `streamId` the store cannot give whole; the pass ends. */
  | { type: 'unreadable'; streamId: string }
  /** Time to look whether another process moved a stored checkpoint (`matchlog rebuild --start-over` on a quiet log). */
  | { type: 'watchTick' }
  /** The stored checkpoints the look read, by name (one whose read failed is left out: no news). */
  | { type: 'checkpointsRead'; checkpoints: ReadonlyMap<string, Position | null> }
  /** The pass is over (its subscription ended, or failed): a look still under way tells nothing. */
  | { type: 'passEnded' };

export type RunnerEffect =
  /** Apply the batch to each projection of its shares and commit them together; then input `committed`. */
  | { type: 'apply'; batch: Batch }
  /** These projections' checkpoints moved to `position` (they applied and committed a batch). */
  | { type: 'reached'; projections: string[]; position: Position }
  /** Every projection of the group has seen the log up to `position`. */
  | { type: 'caughtUp'; position: Position | null }
  /** More events came: the group is not caught up. */
  | { type: 'fellBehind' }
  /** Read the stored checkpoints of the group's projections; then input `checkpointsRead`. */
  | { type: 'readCheckpoints'; projections: string[] }
  /** Another process moved this stored checkpoint: end the pass, the next starts from what is stored. */
  | { type: 'checkpointMoved'; projection: string; checkpoint: Position | null };

export const initialRunnerState = (stored: ReadonlyMap<string, Position | null>): RunnerState => ({
  stored,
  held: [],
  fed: 0,
  applying: 0,
  watch: { status: 'idle' },
});

/** Where the pass subscribes from: the earliest stored checkpoint, or the start when one has none (or there are none). */
export function subscribeAfter(state: RunnerState): Position | null {
  const positions = [...state.stored.values()];
  return positions.length > 0 && positions.every((position): position is Position => position !== null) ? Math.min(...positions) : null;
}

/** Pure: each projection's share of a batch of whole appends, or null for no events. */
export function planBatch(state: RunnerState, events: readonly RecordedEvent[]): Batch | null {
  const last = events.at(-1);
  if (last === undefined) return null;
  const shares = [...state.stored].flatMap(([projection, after]) => {
    if (after !== null && after >= last.position) return [];
    return [{ projection, events: after === null ? events : events.filter((event) => event.position > after), expected: after }];
  });
  return { events, last, shares };
}

type Next = { state: RunnerState; effects: RunnerEffect[] };

/** The state with `events` planned as a batch (one more being applied), and the effect that applies it, if any. */
const applying = (state: RunnerState, events: readonly RecordedEvent[]): Next => {
  const batch = planBatch(state, events);
  return batch === null ? { state, effects: [] } : { state: { ...state, applying: state.applying + 1 }, effects: [{ type: 'apply', batch }] };
};

/**
 * A commit finds a checkpoint another process moved (CheckpointMovedError), but a group with
 * nothing to commit would never: `matchlog rebuild --start-over` on a quiet system left it caught
 * up by its own count while the stored checkpoint said to replay the log. So between batches the
 * group reads what is stored, and ends the pass if that is not what its state says. A look that
 * overlaps a batch (applied, committed or delivered meanwhile) tells nothing and is dropped.
 */
function watched(state: RunnerState, input: Extract<RunnerInput, { type: 'watchTick' | 'checkpointsRead' }>): Next {
  if (input.type === 'watchTick') {
    if (state.watch.status !== 'idle' || state.applying > 0) return { state, effects: [] };
    return {
      state: { ...state, watch: { status: 'reading', since: state.fed } },
      effects: [{ type: 'readCheckpoints', projections: [...state.stored.keys()] }],
    };
  }
  if (state.watch.status !== 'reading') return { state, effects: [] };
  const idle: RunnerState = { ...state, watch: { status: 'idle' } };
  if (state.watch.since !== state.fed || state.applying > 0) return { state: idle, effects: [] };
  for (const [projection, expected] of state.stored) {
    const checkpoint = input.checkpoints.get(projection);
    if (checkpoint !== undefined && checkpoint !== expected) {
      return { state: { ...state, watch: { status: 'ended' } }, effects: [{ type: 'checkpointMoved', projection, checkpoint }] };
    }
  }
  return { state: idle, effects: [] };
}

/** Pure: the state after `input`, and what the driver does, in order. */
export function nextRunnerState(state: RunnerState, input: RunnerInput): Next {
  if (input.type === 'watchTick' || input.type === 'checkpointsRead') return watched(state, input);
  if (input.type === 'passEnded') return { state: { ...state, watch: { status: 'ended' } }, effects: [] };
  const fed = { ...state, fed: state.fed + 1 };
  switch (input.type) {
    case 'delivered': {
      const { ready, held } = holdLastAppend([...state.held, ...input.events]);
      const next = applying({ ...fed, held }, ready);
      return { state: next.state, effects: [{ type: 'fellBehind' }, ...next.effects] };
    }
    case 'caughtUp': {
      // Appends are atomic: caught up, the held append is whole.
      const next = applying({ ...fed, held: [] }, state.held);
      return { state: next.state, effects: [...next.effects, { type: 'caughtUp', position: input.position }] };
    }
    case 'committed': {
      const { batch } = input;
      const stored = new Map(state.stored);
      for (const share of batch.shares) stored.set(share.projection, batch.last.position);
      const projections = batch.shares.map((share) => share.projection);
      return { state: { ...fed, stored, applying: state.applying - 1 }, effects: [{ type: 'reached', projections, position: batch.last.position }] };
    }
    case 'unreadable': {
      // An unreadable event of another stream ends the held append: it is whole, apply it first.
      const whole = state.held[0] !== undefined && state.held[0].streamId !== input.streamId;
      return whole ? applying({ ...fed, held: [] }, state.held) : { state: { ...fed, held: [] }, effects: [] };
    }
  }
}
