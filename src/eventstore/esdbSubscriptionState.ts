import type { Position } from './eventStore.js';

/**
 * The EventStoreDB subscription to the log as a state machine, pure so it is tested without
 * a server (test/eventstore/esdbSubscriptionState.test.ts); ./esdbSubscription.ts drives it.
 *
 * connecting ─opened→ catchingUp ─reachedHead→ caughtUp ─announced→ live ─delivered→ caughtUp
 * A drop from any open state goes back to connecting (with backoff), close to closed, for good.
 */
export type SubscriptionState =
  /** About to open a server subscription after `position`, once `waitMs` have passed (after a drop). */
  | { kind: 'connecting'; position: Position | null; waitMs: number; backoffMs: number; cause: unknown }
  /** The server is delivering the past; it has not said it reached the head. */
  | { kind: 'catchingUp'; position: Position | null; backoffMs: number }
  /** The server reached the head: caughtUp is said once what it sent before is delivered. */
  | { kind: 'caughtUp'; position: Position | null; backoffMs: number }
  /** caughtUp was said; new events come as they are appended. */
  | { kind: 'live'; position: Position | null; backoffMs: number }
  | { kind: 'closed'; position: Position | null };

export type SubscriptionInput =
  | { type: 'opened' }
  /** Events up to `position` were handed to the reader. */
  | { type: 'delivered'; position: Position }
  /** The server said it caught up. */
  | { type: 'reachedHead' }
  /** Servers before 23.10 never say so: the head of the log, looked up while nothing arrived. */
  | { type: 'headProbed'; head: Position | null }
  | { type: 'fellBehind' }
  | { type: 'announced' }
  /** The server subscription failed or ended; `cause` is logged. */
  | { type: 'dropped'; cause: unknown }
  | { type: 'closed' };

export interface RetryDelays {
  /** First wait before resubscribing after a drop; doubles up to `maxRetryDelayMs`. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

export function initialSubscriptionState(after: Position | null, retry: RetryDelays): SubscriptionState {
  return { kind: 'connecting', position: after, waitMs: 0, backoffMs: retry.retryDelayMs, cause: null };
}

/** Pure: the state after `input`. Inputs that do not apply in a state leave it as it is. */
export function nextSubscriptionState(state: SubscriptionState, input: SubscriptionInput, retry: RetryDelays): SubscriptionState {
  if (state.kind === 'closed') return state;
  const { position } = state;
  switch (input.type) {
    case 'closed':
      return { kind: 'closed', position };
    case 'dropped':
      return { kind: 'connecting', position, waitMs: state.backoffMs, backoffMs: Math.min(state.backoffMs * 2, retry.maxRetryDelayMs), cause: input.cause };
    case 'opened':
      return state.kind === 'connecting' ? { kind: 'catchingUp', position, backoffMs: state.backoffMs } : state;
    default:
      if (state.kind === 'connecting') return state;
  }
  switch (input.type) {
    case 'delivered':
      // Delivering resets the backoff; after new events while live, caughtUp is due again.
      return { kind: state.kind === 'live' ? 'caughtUp' : state.kind, position: input.position, backoffMs: retry.retryDelayMs };
    case 'reachedHead':
      return state.kind === 'catchingUp' ? { ...state, kind: 'caughtUp' } : state;
    case 'headProbed':
      return state.kind === 'catchingUp' && atHead(position, input.head) ? { ...state, kind: 'caughtUp' } : state;
    case 'fellBehind':
      return { ...state, kind: 'catchingUp' };
    case 'announced':
      return state.kind === 'caughtUp' ? { kind: 'live', position, backoffMs: retry.retryDelayMs } : state;
  }
}

/** Everything up to the head has been delivered: the log is empty, or its head is not past `position`. */
const atHead = (position: Position | null, head: Position | null) => head === null || (position !== null && head <= position);

/** What the reader does when the server has nothing buffered: say caughtUp, or wait (and probe the head if catching up). */
export function whenIdle(state: SubscriptionState): 'announce' | 'waitAndProbe' | 'wait' {
  if (state.kind === 'caughtUp') return 'announce';
  return state.kind === 'catchingUp' ? 'waitAndProbe' : 'wait';
}

/** From a position the server starts after it; an event at or before it is a repeat. */
export const isNewEvent = (state: SubscriptionState, eventPosition: Position) => state.position === null || eventPosition > state.position;
