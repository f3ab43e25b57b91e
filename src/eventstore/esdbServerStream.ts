import { type AllStreamResolvedEvent, START, streamNameFilter } from '@eventstore/db-client';
import type { EsdbClient, EsdbServerSubscription } from './esdbClient.js';
import { esdbPosition, type EsdbStoredEvent, toStoredEvent } from './esdbRecords.js';
import { isNewEvent, type SubscriptionInput, type SubscriptionState } from './esdbSubscriptionState.js';
import { type Position, UnreadableEventError } from './eventStore.js';
import { namedWithPrefix } from './streamPrefixes.js';

/** The handles of the state machine's driver (./esdbSubscription.ts) that the server stream reports to. */
interface SubscriptionDriver {
  current(): SubscriptionState;
  dispatch(input: SubscriptionInput): void;
  wake(): void;
}

interface EsdbServerStreamDeps {
  client: Pick<EsdbClient, 'subscribeToAll'>;
  /** The service's stream-name prefixes: the server filters by them, and so does the reader. */
  prefixes: string[];
  batchSize: number;
  driver: SubscriptionDriver;
}

/**
 * The gRPC side of an EventStoreDB subscription to the log (./esdbSubscription.ts): at most one
 * server subscription open, whose events move the state machine (./esdbSubscriptionState.ts)
 * and whose buffer is read in batches of the service's events, as stored.
 */
export function createEsdbServerStream({ client, prefixes, batchSize, driver }: EsdbServerStreamDeps) {
  const ours = namedWithPrefix(prefixes);
  /** The server subscription now open, null while connecting or closed. */
  let server: EsdbServerSubscription | null = null;

  function open(position: Position | null): EsdbServerSubscription {
    const subscription = client.subscribeToAll({ fromPosition: position === null ? START : esdbPosition(position), filter: streamNameFilter({ prefixes }) });
    // A dropped subscription may still report its end: only the one open moves the state.
    const fromOpen = (input: SubscriptionInput) => (server === subscription ? driver.dispatch(input) : undefined);
    subscription.on('caughtUp', () => fromOpen({ type: 'reachedHead' }));
    subscription.on('fellBehind', () => fromOpen({ type: 'fellBehind' }));
    subscription.on('readable', () => (server === subscription ? driver.wake() : undefined));
    subscription.on('error', (error: Error) => fromOpen({ type: 'dropped', cause: error }));
    subscription.on('end', () => fromOpen({ type: 'dropped', cause: new Error('EventStoreDB ended the subscription') }));
    return subscription;
  }

  return {
    /** The server subscription now open, null while connecting or closed. */
    opened: () => server,

    /** Opens a server subscription after `position` (throws when it cannot be asked for). */
    connect(position: Position | null) {
      server = open(position);
    },

    async release() {
      const open = server;
      server = null;
      // A subscription whose connection never opened (no node discovered) rejects its unsubscribe
      // with the failure it already reported as an error, which made it a drop: nothing to end.
      await open?.unsubscribe().catch(() => {});
    },

    /**
     * Up to `batchSize` of the service's events the server has buffered, as stored, leaving out
     * repeats; reading stops at an event that cannot be read, given as `unreadable`.
     */
    readBatch(subscription: EsdbServerSubscription): { batch: EsdbStoredEvent[]; unreadable: UnreadableEventError | null } {
      const batch: EsdbStoredEvent[] = [];
      while (batch.length < batchSize) {
        const resolved: AllStreamResolvedEvent | null = subscription.read();
        if (resolved === null) break;
        if (!resolved.event || !ours(resolved.event.streamId)) continue;
        let stored: EsdbStoredEvent;
        try {
          stored = toStoredEvent(resolved.event);
        } catch (error) {
          if (error instanceof UnreadableEventError) return { batch, unreadable: error };
          throw error;
        }
        if (isNewEvent(driver.current(), stored.event.position)) batch.push(stored);
      }
      return { batch, unreadable: null };
    },
  };
}
