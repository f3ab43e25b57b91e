import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { type ExpectedRevision, type Revision, WrongExpectedRevisionError } from './eventStore.js';
import { openEventTable, type StreamAppend, type Written } from './sqliteEventTable.js';

/** An error as it crosses threads (a structured clone keeps neither class nor code): rebuilt by `fromWire`. */
export type WireError =
  | { kind: 'wrongRevision'; streamId: string; expected: ExpectedRevision; actual: Revision | 'no_stream' }
  | { kind: 'error'; name: string; message: string; code?: string };

/** What one append of a group came to, in a form that crosses threads. */
export type WireOutcome = { ok: true; written: Written } | { ok: false; error: WireError };

/** A group's outcomes, or why the whole group failed (its transaction did not commit). */
export type GroupReply = { outcomes: WireOutcome[] } | { failed: WireError };

export interface LogWriter {
  /** Commits a group in one transaction (one fsync); each append succeeds or fails on its own. */
  commit(group: StreamAppend[], recordedAt: string): Promise<GroupReply>;
  close(): Promise<void>;
}

/**
 * The transaction that writes a group of appends to the log, a savepoint per append; runs in
 * the writer thread (./sqliteWriterThread.ts), or in this thread for an in-memory log.
 */
export function logGroupWriter(db: Database.Database): (group: StreamAppend[], recordedAt: string) => GroupReply {
  const table = openEventTable(db);
  const appendInSavepoint = db.transaction(table.append);
  const commitGroup = db.transaction((group: StreamAppend[], recordedAt: string) =>
    group.map((append): WireOutcome => {
      try {
        return { ok: true, written: appendInSavepoint(append, recordedAt) };
      } catch (error) {
        return { ok: false, error: toWire(error) };
      }
    }),
  );
  return (group, recordedAt) => {
    try {
      return { outcomes: commitGroup.immediate(group, recordedAt) };
    } catch (error) {
      return { failed: toWire(error) };
    }
  };
}

/**
 * The log's writer. A file's commits run in a thread of their own, so that this thread goes on
 * parsing and answering requests while SQLite writes and fsyncs; an in-memory log (which no
 * other thread can open) is written here.
 */
export function openLogWriter(file: string, db: Database.Database): LogWriter {
  if (file === ':memory:') {
    const write = logGroupWriter(db);
    return { commit: async (group, recordedAt) => write(group, recordedAt), close: async () => {} };
  }
  return startWriterThread(file);
}

function startWriterThread(file: string): LogWriter {
  const worker = new Worker(new URL('./sqliteWriterThread.js', import.meta.url), { workerData: { file } });
  worker.unref();
  // One group at a time (the group commit waits for each): the next reply answers the oldest.
  const waiting: { resolve: (reply: GroupReply) => void; reject: (error: Error) => void }[] = [];
  let stopped: Error | null = null;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const stop = (error: Error) => {
    stopped ??= error;
    for (const { reject } of waiting.splice(0)) reject(stopped);
  };
  worker.on('message', (reply: GroupReply) => {
    waiting.shift()?.resolve(reply);
    if (waiting.length === 0) worker.unref();
  });
  worker.on('error', (error) => stop(new Error(`the log's writer thread failed: ${error.message}`)));
  void exited.then(() => stop(new Error("the log's writer thread has stopped")));

  return {
    commit(group, recordedAt) {
      if (stopped) return Promise.reject(stopped);
      return new Promise<GroupReply>((resolve, reject) => {
        waiting.push({ resolve, reject });
        // Held while a commit is out, so that the process does not exit before its answer.
        worker.ref();
        worker.postMessage({ group, recordedAt });
      });
    },
    async close() {
      if (!stopped) {
        worker.ref();
        worker.postMessage('close');
      }
      await exited;
    },
  };
}

function toWire(error: unknown): WireError {
  if (error instanceof WrongExpectedRevisionError) {
    return { kind: 'wrongRevision', streamId: error.streamId, expected: error.expected, actual: error.actual };
  }
  const { name, message, code } = error instanceof Error ? (error as Error & { code?: unknown }) : { name: 'Error', message: String(error), code: undefined };
  return { kind: 'error', name, message, ...(typeof code === 'string' ? { code } : {}) };
}

/** The error the writer met, as this thread's code expects it (WrongExpectedRevisionError, or an Error with SQLite's code). */
export function fromWire(wire: WireError): Error {
  if (wire.kind === 'wrongRevision') return new WrongExpectedRevisionError(wire.streamId, wire.expected, wire.actual);
  const error = Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
  error.name = wire.name;
  return error;
}
