import type Database from 'better-sqlite3';
import { readEventMetadata } from './eventChecks.js';
import {
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './eventStore.js';

/** The log's one table: an event per row, its position the row id, one revision per stream. */
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

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

/** Every SQL statement of the SQLite event store: the revision check, inserts and reads. */
export function openEventTable(db: Database.Database) {
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
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  };

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

  return {
    /**
     * Checks the expected revision and inserts the events; call inside a transaction. The
     * events inserted are added to `recorded` as a read would return them.
     */
    append({ streamId, events, expectedRevision }: StreamAppend, recordedAt: string, recorded: RecordedEvent[]): AppendResult {
      const already = alreadyAppended(streamId, events);
      if (already) return already;
      const current = statements.head.get(streamId)?.revision ?? null;
      const matches = expectedRevision === 'any' || (expectedRevision === 'no_stream' ? current === null : current === expectedRevision);
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
        const { id, type, data } = event;
        recorded.push({ id, streamId, revision, position, type, data, metadata: readEventMetadata(event.metadata, id), recordedAt });
      }
      return { nextExpectedRevision: revision, position };
    },

    readStream(streamId: string, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions = {}): RecordedEvent[] {
      const limit = maxCount ?? -1;
      const rows =
        direction === 'forwards'
          ? statements.streamForwards.all(streamId, fromRevision ?? 0, limit)
          : statements.streamBackwards.all(streamId, fromRevision ?? Number.MAX_SAFE_INTEGER, limit);
      return rows.map(toRecorded);
    },

    readAll({ after, maxCount }: ReadAllOptions): RecordedEvent[] {
      return statements.all.all(after ?? 0, maxCount).map(toRecorded);
    },

    headPosition(): number | null {
      return statements.headPosition.get()?.position ?? null;
    },

    /** Changes whenever another connection has committed to the file (never for this one's commits). */
    dataVersion(): number {
      return statements.dataVersion.get() as number;
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
