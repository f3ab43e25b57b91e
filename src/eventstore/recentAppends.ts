import type { Position, RecordedEvent } from './eventStore.js';

/**
 * The events this process committed last, as they were recorded, so that its own subscriptions
 * get them without reading them back from the file (each read copies the whole payload out of
 * SQLite again). Only an unbroken run of positions right after the reader's is served from
 * here; anything else, such as an event another process appended in between, is read from the file.
 *
 * Each event holds its whole payload, so what is kept is bounded by the characters of its
 * events' data (`maxChars`), not by their number: an upload with club sync appends a payload
 * and a small outcome, and counting both as one each made the projections fall behind the
 * bound and read every payload back. None is kept longer than needed: once a reader asks for
 * what follows a position, the events up to it are let go (a reader still further behind
 * reads them from the file). Keeping more made V8 grow the heap far more. The newest commit is
 * kept whatever its size, until read past or the next commit: its data is in memory anyway (the
 * requests that wrote it wait for the readers), and reading a 3 MB payload back from the file cost
 * ~28 ms of copying, rebuilding from its delta and decoding.
 */
export function createRecentAppends(maxChars: number) {
  let events: RecordedEvent[] = [];
  return {
    /** Adds committed events, in commit order (ascending positions); the oldest go first beyond maxChars, never these. */
    add(committed: readonly RecordedEvent[]) {
      if (committed.length === 0) return;
      events = events.concat(committed);
      let held = events.reduce((chars, event) => chars + event.data.length, 0);
      let start = 0;
      const newest = events.length - committed.length;
      while (held > maxChars && start < newest) held -= events[start++]!.data.length;
      if (start > 0) events = events.slice(start);
    },

    /** Up to `maxCount` events right after `after`, or null when the next one is not held here. */
    after(after: Position | null, maxCount: number): RecordedEvent[] | null {
      if (after === null) return null;
      // Positions ascend: what is at or before `after` has been read, and the run starts at the front.
      const unread = events.findIndex((event) => event.position > after);
      if (unread !== 0) events = unread < 0 ? [] : events.slice(unread);
      const run: RecordedEvent[] = [];
      while (run.length < maxCount && events[run.length]?.position === after + 1 + run.length) run.push(events[run.length]!);
      return run.length === 0 ? null : run;
    },

    clear() {
      events = [];
    },
  };
}

export type RecentAppends = ReturnType<typeof createRecentAppends>;
