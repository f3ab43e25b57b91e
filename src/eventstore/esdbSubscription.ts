import { wakeableSleep } from '../platform/wakeableSleep.js';
import type { EsdbClient } from './esdbClient.js';
import type { EsdbStoredEvent } from './esdbRecords.js';
import { createEsdbServerStream } from './esdbServerStream.js';
import {
  initialSubscriptionState,
  nextSubscriptionState,
  type RetryDelays,
  type SubscriptionInput,
  type SubscriptionState,
  whenIdle,
} from './esdbSubscriptionState.js';
import type { AllSubscription, Position, RecordedEvent, SubscriptionItem, UnreadableEventError } from './eventStore.js';

interface EsdbSubscriptionLogger {
  error(obj: object, msg: string): void;
}

export interface EsdbSubscriptionDeps {
  client: Pick<EsdbClient, 'subscribeToAll'>;
  /** The service's stream-name prefixes: the server filters by them, and so does the reader. */
  prefixes: string[];
  headPosition: () => Promise<Position | null>;
  /** Whole data of events as stored (./esdbVersions.ts); throws only for a failure worth resubscribing. */
  decode: (events: readonly EsdbStoredEvent[]) => Promise<{ events: RecordedEvent[]; unreadable: UnreadableEventError | null }>;
  retry: RetryDelays;
  /** How long without events before a subscription that has not caught up looks at the head itself. */
  caughtUpProbeMs: number;
  logger?: EsdbSubscriptionLogger | undefined;
  onClose: () => void;
}

/**
 * A subscription to the service's streams of the whole log, resubscribing with backoff from the
 * last position delivered when the server drops it. Ordered and at least once; caughtUp is said
 * once each time it reaches the head, with the last position delivered. Breaking out of the
 * iteration closes it. An event it cannot read ends it with UnreadableEventError, after the
 * events before it are delivered; a failed connection, or a server that ends it, never does.
 * This drives the state machine (./esdbSubscriptionState.ts); the gRPC side is ./esdbServerStream.ts.
 */
export function subscribeToEsdbAll(deps: EsdbSubscriptionDeps, { after, batchSize }: { after: Position | null; batchSize: number }): AllSubscription {
  const { client, prefixes, retry } = deps;
  let state: SubscriptionState = initialSubscriptionState(after, retry);
  const { sleep, wake } = wakeableSleep();
  // Read through a call: the state changes while the reader awaits, which narrowing cannot see.
  const current = () => state;

  function dispatch(input: SubscriptionInput) {
    state = nextSubscriptionState(state, input, retry);
    wake();
  }

  const stream = createEsdbServerStream({ client, prefixes, batchSize, driver: { current, dispatch, wake } });

  /** The batch whole, up to its first event that cannot be read (then `unreadable`). */
  async function decodeBatch({
    batch,
    unreadable,
  }: ReturnType<typeof stream.readBatch>): Promise<{ batch: RecordedEvent[]; unreadable: UnreadableEventError | null }> {
    const decoded = await deps.decode(batch);
    return { batch: decoded.events, unreadable: decoded.unreadable ?? unreadable };
  }

  /** The connecting state's step: the old server subscription let go, the backoff waited, a new one opened. */
  async function resubscribe(now: Extract<SubscriptionState, { kind: 'connecting' }>) {
    await stream.release();
    // Closed (or dropped again) while the old call was ended: a wake then found nobody asleep.
    if (current() !== now) return;
    if (now.cause !== null)
      deps.logger?.error({ err: now.cause, position: now.position, retryInMs: now.waitMs }, 'EventStoreDB subscription dropped; resubscribing');
    if (now.waitMs > 0) await sleep(now.waitMs);
    if (current() !== now) return;
    try {
      stream.connect(now.position);
      dispatch({ type: 'opened' });
    } catch (error) {
      dispatch({ type: 'dropped', cause: error });
    }
  }

  async function* items(): AsyncGenerator<SubscriptionItem> {
    try {
      for (let now = current(); now.kind !== 'closed'; now = current()) {
        if (now.kind === 'connecting') {
          await resubscribe(now);
          continue;
        }
        const subscription = stream.opened();
        if (subscription === null) throw new Error('EventStoreDB subscription has no server subscription open');
        let read: Awaited<ReturnType<typeof decodeBatch>>;
        try {
          const stored = stream.readBatch(subscription);
          // Decoding may read the log (a delta's base back to its keyframe, a stream's key): a
          // failure there resubscribes from the last event delivered, which reads the batch again.
          read = stored.batch.length === 0 ? { batch: [], unreadable: stored.unreadable } : await decodeBatch(stored);
        } catch (error) {
          dispatch({ type: 'dropped', cause: error });
          continue;
        }
        // Dropped or closed while decoding: the batch is read again after resubscribing, or not wanted.
        const after = current().kind;
        if (after === 'connecting' || after === 'closed') continue;
        const { batch, unreadable } = read;
        const last = batch.at(-1);
        if (last) {
          dispatch({ type: 'delivered', position: last.position });
          yield { kind: 'events', events: batch };
        }
        // Resubscribing would meet it again, for good: the reader is told, with its place.
        if (unreadable) throw unreadable;
        if (last) continue;
        const idle = whenIdle(now);
        if (idle === 'announce') {
          dispatch({ type: 'announced' });
          yield { kind: 'caughtUp', position: now.position };
          continue;
        }
        await sleep(deps.caughtUpProbeMs);
        if (idle === 'waitAndProbe' && current() === now && subscription.readableLength === 0) {
          try {
            dispatch({ type: 'headProbed', head: await deps.headPosition() });
          } catch (error) {
            dispatch({ type: 'dropped', cause: error });
          }
        }
      }
    } finally {
      dispatch({ type: 'closed' });
      deps.onClose();
      await stream.release();
    }
  }

  return {
    [Symbol.asyncIterator]: items,
    async close() {
      dispatch({ type: 'closed' });
      deps.onClose();
      await stream.release();
    },
  };
}
