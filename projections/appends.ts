import type { RecordedEvent } from '../src/eventstore/eventStore.js';

/**
 * Events appended together: one stream, consecutive revisions. Back-to-back appends to one
 * stream may show as one; projections pair events by revision, so that is harmless. An append
 * should not be split over two deliveries; where a store's subscription splits one anyway
 * (EventStoreDB may say "caught up" between its events), a projection reads the event it
 * misses from the log (ProjectionView.readEvent).
 */
const sameAppend = (a: RecordedEvent, b: RecordedEvent) => a.streamId === b.streamId && b.revision === a.revision + 1;

/** Splits events in log order into their appends. */
export function appendsOf(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const appends: RecordedEvent[][] = [];
  let current: RecordedEvent[] = [];
  for (const event of events) {
    const last = current.at(-1);
    if (last !== undefined && !sameAppend(last, event)) {
      appends.push(current);
      current = [];
    }
    current.push(event);
  }
  if (current.length > 0) appends.push(current);
  return appends;
}

/**
 * Splits off the last append of a batch, which may go on in the next batch: the caller holds
 * it back until more events come or the log is known to end there (caught up).
 */
export function holdLastAppend(events: readonly RecordedEvent[]): { ready: RecordedEvent[]; held: RecordedEvent[] } {
  const appends = appendsOf(events);
  const held = appends.pop() ?? [];
  return { ready: appends.flat(), held };
}
