import type Database from 'better-sqlite3';
import { type MessagePort, MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { readEventMetadata } from './eventChecks.js';
import { type AppendResult, type ExpectedRevision, type RecordedEvent, type Revision, WrongExpectedRevisionError } from './eventStore.js';
import { createGroupCommit } from './groupCommit.js';
import { openEventTable, type StreamAppend, type Written } from './sqliteEventTable.js';

/** An error as it crosses threads (a structured clone keeps neither class nor code): rebuilt by `fromWire`. */
export type WireError =
  | { kind: 'wrongRevision'; streamId: string; expected: ExpectedRevision; actual: Revision | 'no_stream' }
  | { kind: 'error'; name: string; message: string; code?: string };

/** What one append of a group came to, in a form that crosses threads. */
export type WireOutcome = { ok: true; written: Written } | { ok: false; error: WireError };

/** An append sent to the writer, numbered so that its answer finds it. */
export interface Submitted {
  id: number;
  append: StreamAppend;
}

export type WriterMessage = Submitted | 'close';

/** What the writer thread starts with: its file, its group bound, and the port it answers on. */
export interface WriterData {
  file: string;
  maxGroupSize: number;
  answers: MessagePort;
}

/** A committed group: each append's outcome (by id), or why the whole group failed (its transaction did not commit). */
export interface GroupAnswer {
  ids: number[];
  recordedAt: string;
  reply: { outcomes: WireOutcome[] } | { failed: WireError };
}

/**
 * The transaction that writes a group of appends to the log, a savepoint per append; runs in
 * the writer thread (./sqliteWriterThread.ts), or in this thread for an in-memory log.
 */
export function logGroupWriter(db: Database.Database): (group: Submitted[]) => GroupAnswer {
  const table = openEventTable(db);
  const appendInSavepoint = db.transaction(table.append);
  const commitGroup = db.transaction((group: Submitted[], recordedAt: string) =>
    group.map(({ append }): WireOutcome => {
      try {
        return { ok: true, written: appendInSavepoint(append, recordedAt) };
      } catch (error) {
        return { ok: false, error: toWire(error) };
      }
    }),
  );
  return (group) => {
    const ids = group.map((submitted) => submitted.id);
    const recordedAt = new Date().toISOString();
    try {
      return { ids, recordedAt, reply: { outcomes: commitGroup.immediate(group, recordedAt) } };
    } catch (error) {
      return { ids, recordedAt, reply: { failed: toWire(error) } };
    }
  };
}

export interface LogWriter {
  /** Resolves once the transaction holding the append is committed (fsync'd); each append succeeds or fails on its own. */
  append(append: StreamAppend): Promise<AppendResult>;
  /** Commits what was sent, then stops. */
  close(): Promise<void>;
}

/** How appends reach the transaction and its answers come back. */
interface Channel {
  send(submitted: Submitted): void;
  close(): Promise<void>;
}

/**
 * The log's writer. A file's commits run in a thread of their own, so that this thread goes on
 * parsing and answering requests while SQLite writes and fsyncs; an in-memory log (which no
 * other thread can open) is written here. `afterGroup` gets each group's events as recorded,
 * before the appends' promises resolve.
 */
export function openLogWriter(
  file: string,
  db: Database.Database,
  options: { maxGroupSize: number; afterGroup: (committed: RecordedEvent[]) => void },
): LogWriter {
  const pending = new Map<number, { append: StreamAppend; resolve: (result: AppendResult) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  /** Why new appends are refused: the writer is closed or has stopped. */
  let refusal: Error | null = null;

  function answer({ ids, recordedAt, reply }: GroupAnswer) {
    const committed: RecordedEvent[] = [];
    const settle: (() => void)[] = [];
    ids.forEach((id, i) => {
      const submitted = pending.get(id);
      if (!submitted) return;
      pending.delete(id);
      const outcome: WireOutcome = 'failed' in reply ? { ok: false, error: reply.failed } : reply.outcomes[i]!;
      if (!outcome.ok) return settle.push(() => submitted.reject(fromWire(outcome.error)));
      const { streamId, events } = submitted.append;
      outcome.written.placed.forEach(({ revision, position }, j) => {
        const { id: eventId, type, data, metadata } = events[j]!;
        committed.push({ id: eventId, streamId, revision, position, type, data, metadata: readEventMetadata(metadata, eventId), recordedAt });
      });
      settle.push(() => submitted.resolve(outcome.written.result));
    });
    options.afterGroup(committed);
    for (const resolveOrReject of settle) resolveOrReject();
  }

  function stop(error: Error) {
    refusal ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  }

  const channel = file === ':memory:' ? inThisThread(db, options.maxGroupSize, answer) : inWriterThread(file, options.maxGroupSize, answer, stop);
  return {
    append(append) {
      if (refusal) return Promise.reject(refusal);
      return new Promise<AppendResult>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { append, resolve, reject });
        channel.send({ id, append });
      });
    },
    async close() {
      refusal ??= new Error('event store is closed');
      await channel.close();
      stop(refusal);
    },
  };
}

function inThisThread(db: Database.Database, maxGroupSize: number, answer: (group: GroupAnswer) => void): Channel {
  const write = logGroupWriter(db);
  const appends = createGroupCommit<Submitted>({ maxGroupSize, commit: (group) => answer(write(group)) });
  return { send: appends.add, close: async () => appends.commitQueued() };
}

/**
 * The writer thread answers on a channel of its own, which this thread also reads whenever it
 * sends an append: under load this thread runs long turns of request callbacks, and an answer
 * left to the event loop waited ~3 ms for one to end (the appends waiting for it with it).
 */
function inWriterThread(file: string, maxGroupSize: number, answer: (group: GroupAnswer) => void, stop: (error: Error) => void): Channel {
  const answers = new MessageChannel();
  const worker = new Worker(new URL('./sqliteWriterThread.js', import.meta.url), {
    workerData: { file, maxGroupSize, answers: answers.port2 } satisfies WriterData,
    transferList: [answers.port2],
  });
  // Only answers still to come hold the process: an idle log does not keep it running.
  worker.unref();
  let outstanding = 0;
  let closing = false;
  const onAnswer = (group: GroupAnswer) => {
    outstanding -= group.ids.length;
    if (outstanding === 0) answers.port1.unref();
    answer(group);
  };
  const takeAnswers = () => {
    for (let received = receiveMessageOnPort(answers.port1); received; received = receiveMessageOnPort(answers.port1)) {
      onAnswer(received.message as GroupAnswer);
    }
  };
  answers.port1.on('message', onAnswer);
  answers.port1.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (error) => stop(new Error(`the log's writer thread failed: ${error.message}`)));
  void exited.then(() => {
    // Its last answers may not have been delivered yet: the exit does not wait for the channel.
    takeAnswers();
    answers.port1.close();
    stop(new Error("the log's writer thread has stopped"));
  });
  return {
    send(submitted) {
      takeAnswers();
      if (outstanding++ === 0) answers.port1.ref();
      worker.postMessage(submitted satisfies WriterMessage);
    },
    async close() {
      if (!closing) {
        closing = true;
        worker.ref();
        worker.postMessage('close' satisfies WriterMessage);
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
