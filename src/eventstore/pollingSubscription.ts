import { wakeableSleep } from '../platform/wakeableSleep.js';
import type { AllSubscription, Position, RecordedEvent, SubscriptionItem } from './eventStore.js';

/** Wakes idle subscriptions when this process has appended, instead of waiting for the next poll. */
export interface Wakers {
  add(wake: () => void): void;
  delete(wake: () => void): void;
}

/**
 * A subscription to the whole log that reads batches after its position until it reaches the
 * head, says caughtUp once per arrival there (as EventStoreDB's does), then polls every
 * `pollIntervalMs` for events appended by other processes, or sooner when woken.
 */
export function pollingSubscription(options: {
  after: Position | null;
  batchSize: number;
  pollIntervalMs: number;
  read: (after: Position | null, maxCount: number) => RecordedEvent[];
  isClosed: () => boolean;
  wakers: Wakers;
}): AllSubscription {
  let position = options.after;
  let stopped = false;
  const idle = wakeableSleep();
  options.wakers.add(idle.wake);
  async function* items(): AsyncGenerator<SubscriptionItem> {
    let announced = false;
    while (!stopped && !options.isClosed()) {
      const events = options.read(position, options.batchSize);
      const last = events[events.length - 1];
      if (last) {
        position = last.position;
        announced = false;
        yield { kind: 'events', events };
      } else if (!announced) {
        announced = true;
        yield { kind: 'caughtUp', position };
      } else {
        await idle.sleep(options.pollIntervalMs);
      }
    }
  }
  return {
    [Symbol.asyncIterator]: items,
    async close() {
      stopped = true;
      options.wakers.delete(idle.wake);
      idle.wake();
    },
  };
}
