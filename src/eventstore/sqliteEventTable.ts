import type Database from 'better-sqlite3';
import { readEventMetadata } from './eventChecks.js';
import {
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Revision,
  UnreadableEventError,
  WrongExpectedRevisionError,
  ERASED_DATA,
} from './eventStore.js';
import { baseRevisionOf, type ChainLink, rebuildChain } from './deltaChain.js';
import {
  type DeltaOptions,
  encodeVersion,
  MIN_VERSION_BYTES,
  storedEncoding,
  type StoredEvent,
  UndecodableVersionError,
  type VersionTip,
  wholeData,
} from './storedVersions.js';
import { createVersionCache, keepTip, type VersionCache } from './versionCache.js';
import { unsaltedPayloadSha256 } from './unsaltedDigest.js';

/**
 * The log's one table: an event per row, its position the row id, one revision per stream.
 * `data` holds the text as given when `encoding` is NULL (every row written before encodings
 * existed), else the stored bytes as a BLOB (./storedVersions.ts).
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position      INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id     TEXT    NOT NULL,
  revision      INTEGER NOT NULL,
  event_id      TEXT    NOT NULL UNIQUE,
  type          TEXT    NOT NULL,
  data          TEXT    NOT NULL,
  metadata      TEXT    NOT NULL,
  recorded_at   TEXT    NOT NULL,
  encoding      TEXT,
  base_revision INTEGER,
  UNIQUE (stream_id, revision)
);`;

/** Columns a log written before stored encodings lacks; added empty (NULL: whole). */
const ENCODING_COLUMNS = { encoding: 'TEXT', base_revision: 'INTEGER' };

/** How far back from a stream's end the write path looks for its newest version. */
const TIP_SEARCH_ROWS = 64;
/** Streams whose newest version this process knows: beyond it, all are forgotten at once. */
const MAX_TIPS = 10_000;

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string | Buffer;
  metadata: string;
  recorded_at: string;
  encoding: string | null;
  base_revision: number | null;
}

type ChainRow = Pick<EventRow, 'revision' | 'encoding' | 'base_revision' | 'data'>;

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

/** What the write path knows of a stream: where it ends and its newest version. */
interface StreamTip {
  head: Revision;
  version: { revision: Revision; depth: number } | null;
}

/** The table, made or brought up to date, and every SQL statement of the log. */
function prepareStatements(db: Database.Database) {
  db.exec(SCHEMA);
  const columns = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('events')")
      .all()
      .map((c) => c.name),
  );
  for (const [name, type] of Object.entries(ENCODING_COLUMNS)) if (!columns.has(name)) db.exec(`ALTER TABLE events ADD COLUMN ${name} ${type}`);

  const statements = {
    head: db.prepare<[string], { revision: number | null }>('SELECT max(revision) AS revision FROM events WHERE stream_id = ?'),
    byEventId: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
    insert: db.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, encoding, base_revision)
       VALUES (@streamId, @revision, @id, @type, @data, @metadata, @recordedAt, @encoding, @baseRevision)`,
    ),
    streamForwards: db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?'),
    streamBackwards: db.prepare<[string, number, number], EventRow>(
      'SELECT * FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
    ),
    all: db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position ASC LIMIT ?'),
    headPosition: db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events'),
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    // octet_length reads a value's size without its bytes.
    lastRows: db.prepare<[string, number, number], { revision: number; encoding: string | null; bytes: number }>(
      'SELECT revision, encoding, octet_length(data) AS bytes FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
    ),
    chainStep: db.prepare<[string, number], Pick<EventRow, 'encoding' | 'base_revision'>>(
      'SELECT encoding, base_revision FROM events WHERE stream_id = ? AND revision = ?',
    ),
    version: db.prepare<[string, number], ChainRow>('SELECT revision, encoding, base_revision, data FROM events WHERE stream_id = ? AND revision = ?'),
    chainOfStream: db.prepare<[string], Pick<EventRow, 'position' | 'revision' | 'encoding' | 'base_revision'>>(
      'SELECT position, revision, encoding, base_revision FROM events WHERE stream_id = ? ORDER BY revision ASC',
    ),
    erase: db.prepare<[string, string, number]>("UPDATE events SET data = ?, encoding = 'erased', base_revision = NULL, metadata = ? WHERE position = ?"),
  };
  return statements;
}

type Statements = ReturnType<typeof prepareStatements>;

/** Whole versions and events from stored rows: a version rebuilt along its delta chain, from `versions` where they hold it. */
function versionReader(statements: Statements, versions: VersionCache) {
  const storedOf = (row: ChainRow, streamId: string) => ({
    data: row.data,
    encoding: storedEncoding(row.encoding, streamId, row.revision),
    baseRevision: row.base_revision,
  });

  /**
   * The bytes of a stream's version: from the cache, else rebuilt from its keyframe (at most
   * the keyframe interval of rows; fewer when a version on the way is cached).
   */
  function versionBytes(streamId: string, revision: Revision): Buffer {
    const cached = versions.get(streamId, revision);
    if (cached) return cached;
    const chain: ChainLink[] = [];
    let base: Buffer | undefined;
    for (let at: number | null = revision; at !== null; ) {
      const row = statements.version.get(streamId, at);
      if (!row) throw new UndecodableVersionError(streamId, revision, `its chain names revision ${at}, which is not stored`);
      const link = { revision: row.revision, stored: storedOf(row, streamId) };
      chain.push(link);
      const next = baseRevisionOf(streamId, link);
      base = next === null ? undefined : versions.get(streamId, next);
      at = base ? null : next;
    }
    const bytes = rebuildChain(streamId, chain, base);
    versions.set(streamId, revision, bytes);
    return bytes;
  }

  /** The whole events of rows read in ascending revision per stream. */
  function toRecorded(rows: EventRow[]): RecordedEvent[] {
    const stored: StoredEvent[] = rows.map((row) => ({ streamId: row.stream_id, revision: row.revision, stored: storedOf(row, row.stream_id) }));
    let data: string[];
    try {
      data = wholeData(stored, versionBytes, (streamId, revision, bytes) => versions.set(streamId, revision, bytes));
    } catch (error) {
      if (!(error instanceof UndecodableVersionError)) throw error;
      const row = rows.find((r) => r.stream_id === error.streamId && r.revision === error.revision) ?? rows[0]!;
      throw new UnreadableEventError(error.streamId, String(row.position), error.message);
    }
    return rows.map((row, i) => ({
      id: row.event_id,
      streamId: row.stream_id,
      revision: row.revision,
      position: row.position,
      type: row.type,
      data: data[i]!,
      metadata: readEventMetadata(JSON.parse(row.metadata), row.event_id),
      recordedAt: row.recorded_at,
      ...(row.encoding === 'erased' ? { erased: true as const } : {}),
    }));
  }
  return { versionBytes, toRecorded };
}

/** A retried append (same event ids, same stream, same order) returns the first result. */
function alreadyAppended(statements: Statements, streamId: string, events: NewEvent[]): AppendResult | null {
  const rows = events.map((event) => statements.byEventId.get(event.id));
  if (rows.every((row) => row === undefined)) return null;
  const firstRow = rows[0];
  const lastRow = rows[rows.length - 1];
  const sameAppend =
    firstRow !== undefined && lastRow !== undefined && rows.every((row, i) => row?.stream_id === streamId && row.revision === firstRow.revision + i);
  if (!sameAppend) throw new Error(`event ids already used elsewhere in the log (stream ${streamId})`);
  return { nextExpectedRevision: lastRow.revision, position: lastRow.position };
}

/**
 * The write side: appends checked against the stream's revision and inserted, each version stored
 * against the stream's newest (its tip, known here or found in the stream's last rows); tips of a
 * transaction under way are pending until it commits.
 */
function streamWriter(
  statements: Statements,
  versions: VersionCache,
  versionBytes: (streamId: string, revision: Revision) => Buffer,
  keyframeInterval: number,
) {
  const tips = new Map<string, StreamTip>();
  /**
   * Tips of the transaction under way: kept once it commits, dropped if it does not. A new Map
   * each time, not `clear()`: V8 gives a cleared Map of the old generation its next table there
   * too, and the table let go still points at the tips it held, each with a created match's
   * whole text, keeping them alive through young collections into a promotion
   * (docs/performance/steps.md, step 56).
   */
  let pending = new Map<string, { head: Revision; version: VersionTip | null }>();

  /** The stream's newest version at or before `head`, found in the last rows of the stream. */
  function findTip(streamId: string, head: Revision): VersionTip | null {
    const known = tips.get(streamId);
    if (known?.head === head) return known.version && { ...known.version, bytes: versionBytes(streamId, known.version.revision) };
    const last = statements.lastRows
      .all(streamId, head, TIP_SEARCH_ROWS)
      .find((row) => row.encoding !== 'erased' && (row.encoding !== null || row.bytes >= MIN_VERSION_BYTES));
    if (!last) return null;
    let depth = 0;
    for (
      let at = last.revision, step = statements.chainStep.get(streamId, at);
      step?.encoding === 'delta' && step.base_revision !== null && step.base_revision < at;
    ) {
      depth += 1;
      at = step.base_revision;
      step = statements.chainStep.get(streamId, at);
    }
    return { revision: last.revision, depth, bytes: versionBytes(streamId, last.revision) };
  }

  return {
    /**
     * Checks the expected revision and inserts the events, each version stored against the
     * stream's previous one (./storedVersions.ts); call inside a transaction, then
     * `keepPending` once it committed or `dropPending` if it did not. The events inserted are
     * added to `recorded` as a read would return them.
     */
    append({ streamId, events, expectedRevision }: StreamAppend, recordedAt: string, recorded: RecordedEvent[]): AppendResult {
      const already = alreadyAppended(statements, streamId, events);
      if (already) return already;
      const current = statements.head.get(streamId)?.revision ?? null;
      const matches = expectedRevision === 'any' || (expectedRevision === 'no_stream' ? current === null : current === expectedRevision);
      if (!matches) throw new WrongExpectedRevisionError(streamId, expectedRevision, current ?? 'no_stream');
      let revision = current ?? -1;
      let position = 0;
      const inTransaction = pending.get(streamId);
      const hasVersion = events.some((event) => event.data.length >= MIN_VERSION_BYTES);
      let tip = !hasVersion || current === null ? null : inTransaction?.head === current ? inTransaction.version : findTip(streamId, current);
      for (const event of events) {
        revision += 1;
        const encoded = encodeVersion(event.data, revision, tip, keyframeInterval);
        tip = encoded.tip;
        const info = statements.insert.run({
          streamId,
          revision,
          id: event.id,
          type: event.type,
          data: encoded.stored.data,
          metadata: JSON.stringify(event.metadata),
          recordedAt,
          encoding: encoded.stored.encoding,
          baseRevision: encoded.stored.baseRevision,
        });
        position = Number(info.lastInsertRowid);
        const { id, type, data } = event;
        recorded.push({ id, streamId, revision, position, type, data, metadata: readEventMetadata(event.metadata, id), recordedAt });
      }
      // Without a version appended and none known, the next append looks the tip up again.
      if (hasVersion || inTransaction || tips.has(streamId)) pending.set(streamId, { head: revision, version: tip });
      return { nextExpectedRevision: revision, position };
    },

    /** The transaction holding the appends committed: their streams' newest versions are known. */
    keepPending() {
      for (const [streamId, { head, version }] of pending) {
        const before = tips.get(streamId)?.version ?? null;
        if (tips.size >= MAX_TIPS && !tips.has(streamId)) tips.clear();
        tips.set(streamId, { head, version: version && { revision: version.revision, depth: version.depth } });
        keepTip(versions, streamId, before, version);
      }
      pending = new Map();
    },

    dropPending() {
      pending = new Map();
    },

    /** Forgets every stream's tip (an erasure, or the store closing). */
    clear() {
      tips.clear();
    },
    /** Forgets one stream's tip (its data was erased). */
    forget(streamId: string) {
      tips.delete(streamId);
    },
  };
}

/** Every SQL statement of the SQLite event store: the revision check, inserts and reads. */
export function openEventTable(db: Database.Database, deltas: DeltaOptions) {
  const statements = prepareStatements(db);
  const versions = createVersionCache(deltas.cacheBytes);
  const { versionBytes, toRecorded } = versionReader(statements, versions);
  const writer = streamWriter(statements, versions, versionBytes, deltas.keyframeInterval);

  return {
    append: writer.append,
    keepPending: writer.keepPending,
    dropPending: writer.dropPending,

    /**
     * Overwrites the data of the stream's events at `revisions`, and of every delta built on
     * them, with ERASED_DATA (call inside a transaction, with secure_delete on). A version stored
     * before salts gets the unsalted digest of its payload in its metadata first, so the
     * transparency log keeps its leaf. Returns how many rows were erased now.
     */
    erase(streamId: string, revisions: readonly Revision[]): number {
      const erased = new Set(revisions);
      const rows = statements.chainOfStream.all(streamId);
      for (const row of rows) if (row.encoding === 'delta' && row.base_revision !== null && erased.has(row.base_revision)) erased.add(row.revision);
      const targets = rows.filter((row) => erased.has(row.revision) && row.encoding !== 'erased');
      if (targets.length === 0) return 0;
      const whole = new Map(this.readStream(streamId).map((event) => [event.revision, event]));
      for (const row of targets) {
        const event = whole.get(row.revision)!;
        const metadata = { ...event.metadata, ...(event.metadata.payloadSha256 === undefined ? { payloadSha256: unsaltedPayloadSha256(event.data) } : {}) };
        statements.erase.run(ERASED_DATA, JSON.stringify(metadata), row.position);
      }
      versions.clear();
      writer.forget(streamId);
      return targets.length;
    },

    readStream(streamId: string, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions = {}): RecordedEvent[] {
      const limit = maxCount ?? -1;
      if (direction === 'forwards') return toRecorded(statements.streamForwards.all(streamId, fromRevision ?? 0, limit));
      return toRecorded(statements.streamBackwards.all(streamId, fromRevision ?? Number.MAX_SAFE_INTEGER, limit).reverse()).reverse();
    },

    /**
     * The log in order. An event that cannot be read ends the read after the readable ones
     * before it are given; the next read, from there, fails with it (UnreadableEventError).
     */
    readAll({ after, maxCount }: ReadAllOptions): RecordedEvent[] {
      const rows = statements.all.all(after ?? 0, maxCount);
      try {
        return toRecorded(rows);
      } catch (error) {
        const at = error instanceof UnreadableEventError ? rows.findIndex((row) => String(row.position) === error.position) : -1;
        if (at <= 0) throw error;
        return toRecorded(rows.slice(0, at));
      }
    },

    headPosition(): number | null {
      return statements.headPosition.get()?.position ?? null;
    },

    /** Changes whenever another connection has committed to the file (never for this one's commits). */
    dataVersion(): number {
      return statements.dataVersion.get() as number;
    },

    clearCaches() {
      versions.clear();
      writer.clear();
    },
  };
}

export type EventTable = ReturnType<typeof openEventTable>;
