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
  | { type: 'unreadable'; streamId: string };

export type RunnerEffect =
  /** Apply the batch to each projection of its shares and commit them together; then input `committed`. */
  | { type: 'apply'; batch: Batch }
  /** These projections' checkpoints moved to `position` (they applied and committed a batch). */
  | { type: 'reached'; projections: string[]; position: Position }
  /** Every projection of the group has seen the log up to `position`. */
  | { type: 'caughtUp'; position: Position | null }
  /** More events came: the group is not caught up. */
  | { type: 'fellBehind' };

export const initialRunnerState = (stored: ReadonlyMap<string, Position | null>): RunnerState => ({ stored, held: [] });

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

const applying = (state: RunnerState, events: readonly RecordedEvent[]): RunnerEffect[] => {
  const batch = planBatch(state, events);
  return batch === null ? [] : [{ type: 'apply', batch }];
};

/** Pure: the state after `input`, and what the driver does, in order. */
export function nextRunnerState(state: RunnerState, input: RunnerInput): { state: RunnerState; effects: RunnerEffect[] } {
  switch (input.type) {
    case 'delivered': {
      const { ready, held } = holdLastAppend([...state.held, ...input.events]);
      return { state: { ...state, held }, effects: [{ type: 'fellBehind' }, ...applying(state, ready)] };
    }
    case 'caughtUp':
      // Appends are atomic: caught up, the held append is whole.
      return { state: { ...state, held: [] }, effects: [...applying(state, state.held), { type: 'caughtUp', position: input.position }] };
    case 'committed': {
      const { batch } = input;
      const stored = new Map(state.stored);
      for (const share of batch.shares) stored.set(share.projection, batch.last.position);
      const projections = batch.shares.map((share) => share.projection);
      return { state: { ...state, stored }, effects: [{ type: 'reached', projections, position: batch.last.position }] };
    }
    case 'unreadable': {
      // An unreadable event of another stream ends the held append: it is whole, apply it first.
      const whole = state.held[0] !== undefined && state.held[0].streamId !== input.streamId;
      return { state: { ...state, held: [] }, effects: whole ? applying(state, state.held) : [] };
    }
  }
}
