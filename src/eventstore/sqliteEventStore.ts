import { openSqliteFile } from '../platform/sqliteFile.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';
import { invalidAppend, readEventMetadata } from './eventChecks.js';
import {
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscriptionItem,
  WrongExpectedRevisionError,
} from './eventStore.js';

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export interface SqliteEventStoreOptions {
  /** How often an idle subscription looks for events appended by other processes. */
  pollIntervalMs?: number;
  /** Most appends committed together under one fsync. */
  maxGroupSize?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id   TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  event_id    TEXT    NOT NULL UNIQUE,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);`;

/**
 * The embedded event store: one SQLite file, WAL, synchronous=FULL.
 *
 * Durability: an append's promise resolves only after the transaction holding it has
 * committed, and with synchronous=FULL a WAL commit is fsync'd. Appends that arrive while a
 * commit is running are grouped into the next transaction (group commit), so many requests
 * share one fsync; each append still succeeds or fails on its own (a savepoint per append).
 */
export function openSqliteEventStore(file: string, options: SqliteEventStoreOptions = {}): EventStore {
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const maxGroupSize = options.maxGroupSize ?? 256;
  const db = openSqliteFile(file, 'FULL');
  db.exec(SCHEMA);

  const statements = {
    head: db.prepare<[string], { revision: number | null }>('SELECT max(revision) AS revision FROM events WHERE stream_id = ?'),
    byEventId: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
    insert: db.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at)
       VALUES (@streamId, @revision, @id, @type, @data, @metadata, @recordedAt)`,
    ),
    streamForwards: db.prepare<[string, number, number], EventRow>(
      'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?',
    ),
    streamBackwards: db.prepare<[string, number, number], EventRow>(
      'SELECT * FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
    ),
    all: db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position ASC LIMIT ?'),
    headPosition: db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events'),
  };

  function appendOne(pending: PendingAppend, recordedAt: string): AppendResult {
    const { streamId, events, expectedRevision } = pending;
    const first = events[0];
    if (!first) throw new Error('append needs at least one event');
    const already = alreadyAppended(streamId, events);
    if (already) return already;
    const current = statements.head.get(streamId)?.revision ?? null;
    const matches =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' ? current === null : current === expectedRevision);
    if (!matches) throw new WrongExpectedRevisionError(streamId, expectedRevision, current ?? 'no_stream');
    let revision = current ?? -1;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = statements.insert.run({
        streamId,
        revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: JSON.stringify(event.metadata),
        recordedAt,
      });
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedRevision: revision, position };
  }

  /** A retried append (same event ids, same stream, same order) returns the first result. */
  function alreadyAppended(streamId: string, events: NewEvent[]): AppendResult | null {
    const rows = events.map((event) => statements.byEventId.get(event.id));
    if (rows.every((row) => row === undefined)) return null;
    const firstRow = rows[0];
    const lastRow = rows[rows.length - 1];
    const sameAppend =
      firstRow !== undefined &&
      lastRow !== undefined &&
      rows.every((row, i) => row?.stream_id === streamId && row.revision === firstRow.revision + i);
    if (!sameAppend) throw new Error(`event ids already used elsewhere in the log (stream ${streamId})`);
    return { nextExpectedRevision: lastRow.revision, position: lastRow.position };
  }

  const appendInSavepoint = db.transaction(appendOne);
  const commitGroup = db.transaction((group: PendingAppend[], recordedAt: string) =>
    group.map((pending): { ok: true; result: AppendResult } | { ok: false; error: unknown } => {
      try {
        return { ok: true, result: appendInSavepoint(pending, recordedAt) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );

  let queue: PendingAppend[] = [];
  let flushScheduled = false;
  let closed = false;
  const wakers = new Set<() => void>();

  function flush() {
    flushScheduled = false;
    const group = queue.slice(0, maxGroupSize);
    queue = queue.slice(group.length);
    if (group.length === 0 || closed) return;
    if (queue.length > 0) scheduleFlush();
    let outcomes;
    try {
      outcomes = commitGroup.immediate(group, new Date().toISOString());
    } catch (error) {
      for (const pending of group) pending.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => {
      const pending = group[i];
      if (!pending) return;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
    for (const wake of wakers) wake();
  }

  function scheduleFlush() {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }

  function readAllSync({ after, maxCount }: ReadAllOptions): RecordedEvent[] {
    return statements.all.all(after ?? 0, maxCount).map(toRecorded);
  }

  return {
    positionUnit: 'event',

    appendToStream(streamId, events, expectedRevision) {
      if (closed) return Promise.reject(new Error('event store is closed'));
      const invalid = invalidAppend(streamId, events);
      if (invalid) return Promise.reject(invalid);
      return new Promise<AppendResult>((resolve, reject) => {
        queue.push({ streamId, events, expectedRevision, resolve, reject });
        scheduleFlush();
      });
    },

    async readStream(streamId, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions = {}) {
      const limit = maxCount ?? -1;
      const rows =
        direction === 'forwards'
          ? statements.streamForwards.all(streamId, fromRevision ?? 0, limit)
          : statements.streamBackwards.all(streamId, fromRevision ?? Number.MAX_SAFE_INTEGER, limit);
      return rows.map(toRecorded);
    },

    async readAll(options) {
      return readAllSync(options);
    },

    async headPosition() {
      return statements.headPosition.get()?.position ?? null;
    },

    subscribeToAll({ after, batchSize = 100 }) {
      let position: Position | null = after;
      let stopped = false;
      const idle = wakeableSleep();
      const waker = idle.wake;
      wakers.add(waker);
      async function* items(): AsyncGenerator<SubscriptionItem> {
        // Said once each time the subscription reaches the head, as EventStoreDB's is.
        let announced = false;
        while (!stopped && !closed) {
          const events = readAllSync({ after: position, maxCount: batchSize });
          const last = events[events.length - 1];
          if (last) {
            position = last.position;
            announced = false;
            yield { kind: 'events', events };
          } else if (!announced) {
            announced = true;
            yield { kind: 'caughtUp', position };
          } else {
            await idle.sleep(pollIntervalMs);
          }
        }
      }
      const subscription: AllSubscription = {
        [Symbol.asyncIterator]: items,
        async close() {
          stopped = true;
          wakers.delete(waker);
          waker();
        },
      };
      return subscription;
    },

    async close() {
      if (closed) return;
      while (queue.length > 0) flush();
      closed = true;
      for (const wake of wakers) wake();
      wakers.clear();
      db.close();
    },
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: row.data,
    metadata: readEventMetadata(JSON.parse(row.metadata), row.event_id),
    recordedAt: row.recorded_at,
  };
}
