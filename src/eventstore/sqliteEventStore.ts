import { storageFull } from '../domain/errors.js';
import { openSqliteFile } from '../platform/sqliteFile.js';
import { sameFileCheck, storageFailureOf } from '../platform/storageFailure.js';
import { invalidAppend } from './eventChecks.js';
import type { AppendResult, EventStore, Position, RecordedEvent } from './eventStore.js';
import { createGroupCommit, type Outcome } from './groupCommit.js';
import { pollingSubscription } from './pollingSubscription.js';
import { createRecentAppends, type RecentAppends } from './recentAppends.js';
import { type EventTable, openEventTable, type StreamAppend } from './sqliteEventTable.js';
import { createStreamEnds, type StreamEnds } from './streamEnds.js';
import { DEFAULT_DELTA_OPTIONS, type DeltaOptions } from './storedVersions.js';

/** Data kept of this process's last commits for its subscriptions: some 18 payloads of 85 KB. */
const RECENT_APPENDS_CHARS = 1.5 * 1024 * 1024;

/**
 * Copies every WAL frame into the database file and empties the WAL. Another connection reading
 * an older snapshot keeps the frames it needs: wait for it a little, then give up saying so.
 */
async function truncateWal(db: ReturnType<typeof openSqliteFile>): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (result?.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the erased bytes may still be in the log's -wal file: another process kept reading it; run the erasure again");
}

/** A write the file system refused (full, read-only, failing) as storage_full; any other error as it is. */
function refusedWrite(error: unknown): never {
  const failure = storageFailureOf(error);
  throw failure === null ? error : storageFull(failure, error);
}

export interface SqliteEventStoreOptions {
  /** How often an idle subscription looks for events appended by other processes. */
  pollIntervalMs?: number;
  /** Most appends committed together under one fsync. */
  maxGroupSize?: number;
  /** How versions are stored as deltas (./storedVersions.ts); DELTA_KEYFRAME_INTERVAL and DELTA_CACHE_BYTES. */
  deltas?: DeltaOptions;
  /** Told after each group commit: how many appends it held and how long its COMMIT (WAL write and fsync) took. */
  onGroupCommit?: (appends: number, commitSeconds: number) => void;
}

/**
 * Turns of the event loop a group waits for more appends while writers are concurrent
 * (./groupCommit.ts): live uploads on 10 connections committed ~9.7 appends a group instead of
 * ~8.6, for 1.5–2.5 % more uploads a second (docs/performance/steps.md, step 66).
 */
const COLLECT_TURNS = 10;

/** Throws storage_full when `file` is no longer the file opened (removed or replaced): a write would go into an inode nobody opens again. */
function fileGuard(file: string): () => void {
  if (file === ':memory:') return () => {};
  const stillOpened = sameFileCheck(file);
  return () => {
    if (!stillOpened()) throw storageFull('unwritable', new Error(`the event store file ${file} was removed or replaced since the server opened it`));
  };
}

/**
 * The write side: a group of appends committed in one transaction, each append in a savepoint of
 * its own; what committed is kept for this process's subscriptions (`recent`) and tells `ends`
 * where streams and the log now end.
 */
function groupCommitter(
  db: ReturnType<typeof openSqliteFile>,
  table: EventTable,
  {
    recent,
    ends,
    guard,
    onGroupCommit,
  }: { recent: RecentAppends; ends: StreamEnds; guard: () => void; onGroupCommit: SqliteEventStoreOptions['onGroupCommit'] },
) {
  const appendInSavepoint = db.transaction(table.append);
  /** When the group's statements ended: what the transaction takes after it is its COMMIT. */
  let statementsDone = 0;
  const commitGroup = db.transaction((group: StreamAppend[], recordedAt: string, committed: RecordedEvent[]) => {
    const outcomes = group.map((append): Outcome<AppendResult> => {
      const recorded: RecordedEvent[] = [];
      try {
        const result = appendInSavepoint(append, recordedAt, recorded);
        committed.push(...recorded);
        return { ok: true, result };
      } catch (error) {
        return { ok: false, error };
      }
    });
    statementsDone = performance.now();
    return outcomes;
  });
  /** Commits a group; its events are kept for this process's subscriptions only once committed. */
  return function commit(group: StreamAppend[]): Outcome<AppendResult>[] {
    const committed: RecordedEvent[] = [];
    guard();
    let outcomes: Outcome<AppendResult>[];
    try {
      outcomes = commitGroup.immediate(group, new Date().toISOString(), committed);
    } catch (error) {
      table.dropPending();
      throw error;
    }
    table.keepPending();
    onGroupCommit?.(group.length, (performance.now() - statementsDone) / 1000);
    recent.add(committed);
    // Only events inserted now: an append retried with the same ids inserts none, and its stream may have gone on since.
    for (const event of committed) ends.endsAt(event.streamId, event.revision + 1);
    const last = committed.at(-1);
    if (last !== undefined) ends.logEndsAt(last.position);
    return outcomes;
  };
}

/**
 * The log after `position`, from the file unless it surely ends there: a subscription asks after
 * each delivery, to learn it is caught up, and that read cost ~70 µs of a write group under load.
 */
function logAfter(table: EventTable, ends: StreamEnds) {
  return (position: Position | null, maxCount: number): RecordedEvent[] => {
    if (position !== null && ends.logEndsBefore(position)) return [];
    const events = table.readAll({ after: position, maxCount });
    // Only a read that found nothing tells the end: one that stopped short may have stopped before an unreadable event.
    if (events.length === 0 && position !== null) ends.logEndsAt(position);
    return events;
  };
}

/**
 * The embedded event store: one SQLite file, WAL, synchronous=FULL. The SQL is in
 * sqliteEventTable.ts, the grouping in groupCommit.ts, subscriptions in pollingSubscription.ts;
 * they get the events this process committed from recentAppends.ts, without reading them back;
 * a read of what follows a stream's or the log's known end is answered by streamEnds.ts, without the file.
 *
 * Durability: an append's promise resolves only after the transaction holding it has
 * committed, and with synchronous=FULL a WAL commit is fsync'd. Appends that arrive while a
 * commit is running are grouped into the next transaction (group commit), so many requests
 * share one fsync; each append still succeeds or fails on its own (a savepoint per append).
 *
 * Storage: a stream's versions after its first are stored as deltas against the one before,
 * with a keyframe at least every `deltas.keyframeInterval` (./storedVersions.ts). A delta is
 * written in the same transaction as, or a later one than, every version it needs, so each
 * committed version can be rebuilt whatever the moment a crash came; reads give whole data.
 *
 * A write the disk refuses (full, read-only, I/O error), or one to a file removed since it was
 * opened (it would go into an inode nobody opens again), fails with storage_full: nothing stored.
 */
export function openSqliteEventStore(file: string, options: SqliteEventStoreOptions = {}): EventStore {
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const db = openSqliteFile(file, 'FULL');
  // Space freed or left over in a page (a row moved when a page splits) is overwritten with zeros,
  // so an erased payload leaves no stale copy in the file (docs/auditing.md). The log only appends:
  // little is ever freed outside an erasure.
  db.pragma('secure_delete = ON');
  const table = openEventTable(db, options.deltas ?? DEFAULT_DELTA_OPTIONS);
  const guard = fileGuard(file);
  const recent = createRecentAppends(RECENT_APPENDS_CHARS);
  const ends = createStreamEnds(table.dataVersion);
  const commit = groupCommitter(db, table, { recent, ends, guard, onGroupCommit: options.onGroupCommit });
  const readAfter = logAfter(table, ends);
  const wakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of wakers) wake();
  };
  const appends = createGroupCommit<StreamAppend, AppendResult>({
    maxGroupSize: options.maxGroupSize ?? 256,
    collectTurns: COLLECT_TURNS,
    commit,
    afterCommit: wakeAll,
  });
  let closed = false;

  return {
    positionUnit: 'event',

    async appendToStream(streamId, events, expectedRevision) {
      if (closed) throw new Error('event store is closed');
      const invalid = invalidAppend(streamId, events);
      if (invalid) throw invalid;
      return appends.submit({ streamId, events, expectedRevision }).catch(refusedWrite);
    },

    async readStream(streamId, options = {}) {
      const from = options.fromRevision ?? 0;
      const forwards = (options.direction ?? 'forwards') === 'forwards';
      if (forwards && ends.endsBefore(streamId, from)) return [];
      const events = table.readStream(streamId, options);
      const last = events.at(-1);
      const reachedEnd = forwards && (options.maxCount === undefined || events.length < options.maxCount);
      if (reachedEnd) ends.endsAt(streamId, last === undefined ? from : last.revision + 1);
      return events;
    },

    async readAll(options) {
      return table.readAll(options);
    },

    async headPosition() {
      return table.headPosition();
    },

    subscribeToAll({ after, batchSize = 100 }) {
      return pollingSubscription({
        after,
        batchSize,
        pollIntervalMs,
        read: (position, maxCount) => recent.after(position, maxCount) ?? readAfter(position, maxCount),
        isClosed: () => closed,
        wakers,
      });
    },

    async erasePayloads(streamId, revisions) {
      if (closed) throw new Error('event store is closed');
      // secure_delete (on since open) zeroes what the update frees (the old rows' cells and overflow
      // pages); the checkpoint then moves the zeroed pages into the file and truncates the WAL,
      // whose older frames still held the bytes.
      guard();
      try {
        db.transaction(() => table.erase(streamId, revisions)).immediate();
      } catch (error) {
        refusedWrite(error);
      }
      recent.clear();
      table.clearCaches();
      await truncateWal(db);
    },

    async close() {
      if (closed) return;
      appends.close();
      closed = true;
      wakeAll();
      wakers.clear();
      recent.clear();
      table.clearCaches();
      db.close();
    },
  };
}
