import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { MatchDiff } from '../domain/matchDiff.js';
import type { BasisText } from '../domain/storedBasis.js';
import type { TeamNames } from '../domain/matchPayload.js';
import type { BodyReader } from '../http/api/jsonBody.js';
import type { BodyReadElsewhere } from '../http/api/jsonBodyText.js';
import type { JsonShapeLimits } from '../http/api/jsonShape.js';
import type { OffLoopWork } from '../../projections/projection.js';

/**
 * What the helper thread (./helperThreadMain.ts) is asked to do. Only texts and small values
 * cross: a 1.3 MB diff basis took the receiving thread ~150 ms to take out of a message as an
 * object graph under the server's heap growth factor (--heap-growing-percent=50,
 * src/runtime/garbageCollector.ts), and bases are kept as their text (src/domain/storedBasis.ts).
 */
type Job =
  | { kind: 'readBody'; body: Uint8Array; shape: JsonShapeLimits }
  | { kind: 'diffBasis'; text: string }
  | { kind: 'versionDiff'; text: string; previous: BasisText }
  | { kind: 'teamNames'; text: string };

/** A job as sent, with the id its answer carries. */
export type HelperJob = Job & { id: number };

/** The job of one kind. */
export type HelperJobOf<Kind extends Job['kind']> = Extract<HelperJob, { kind: Kind }>;

/** The helper thread's answer to a job: its result, or the message of what it threw. */
export type HelperReply = { id: number; result: unknown } | { id: number; error: string };

/** How long the thread is kept without a job before it ends (its isolate and heap are let go). */
const IDLE_MS = 30_000;

export interface HelperThread extends BodyReader, OffLoopWork {
  /** Jobs the thread has answered so far, by kind. */
  answered(): Record<Job['kind'], number>;
  /** Ends the thread; jobs still running are rejected (their callers do them in place). */
  close(): Promise<void>;
}

/**
 * One worker thread for the work on large payloads that would otherwise hold the event loop for
 * tens to hundreds of milliseconds, for payloads of at least `minBytes` (HELPER_THREAD_BYTES):
 * reading an upload's body (decode, JSON.parse, shape check), and a version's diff basis, its diff
 * and its team names for the projections.
 * Its results are those the same functions give in place; what is parsed there stays there, and
 * only texts and small values cross. Started on its first job and ended after IDLE_MS without
 * one, so a server that never gets a large payload never has it. Only its jobs in flight keep
 * the process alive. When it fails (it threw, ran out of memory, exited), its jobs are rejected and their
 * callers do them in place; `onFailure` hears of it, and the next job starts a new thread.
 */
export function createHelperThread({
  minBytes,
  onFailure,
  resourceLimits,
}: {
  minBytes: number;
  onFailure: (error: unknown) => void;
  /** The thread's heap limits (node's defaults when absent). */
  resourceLimits?: ResourceLimits;
}): HelperThread {
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 0;
  const answered: Record<Job['kind'], number> = { readBody: 0, diffBasis: 0, versionDiff: 0, teamNames: 0 };
  const pending = new Map<number, { kind: Job['kind']; resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  /** Ends `thread` if it is the current one; its jobs are rejected with `error`. */
  function end(thread: Worker, error: Error, report: boolean) {
    if (worker !== thread) return;
    worker = null;
    if (idle !== null) clearTimeout(idle);
    idle = null;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    void thread.terminate();
    if (report) onFailure(error);
  }

  /** Once `thread` has no job in flight, it no longer keeps the process alive, and ends after IDLE_MS. */
  function settled(thread: Worker) {
    if (pending.size > 0 || worker !== thread) return;
    thread.unref();
    idle = setTimeout(() => end(thread, new Error('the helper thread was idle'), false), IDLE_MS).unref();
  }

  function started(): Worker {
    if (worker !== null) return worker;
    const thread = new Worker(new URL('./helperThreadMain.js', import.meta.url), resourceLimits ? { resourceLimits } : {});
    thread.on('message', (reply: HelperReply) => {
      const job = pending.get(reply.id);
      pending.delete(reply.id);
      if (job !== undefined) answered[job.kind] += 1;
      if ('error' in reply) job?.reject(new Error(reply.error));
      else job?.resolve(reply.result);
      settled(thread);
    });
    thread.on('error', (error) => end(thread, error, true));
    thread.on('exit', (code) => end(thread, new Error(`the helper thread exited with code ${code}`), true));
    worker = thread;
    return thread;
  }

  function run<T>(job: Job): Promise<T> {
    const thread = started();
    if (idle !== null) clearTimeout(idle);
    idle = null;
    nextId += 1;
    const id = nextId;
    // A job in flight keeps the process alive, as any pending I/O would; an idle thread does not.
    thread.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { kind: job.kind, resolve: resolve as (result: unknown) => void, reject });
      try {
        thread.postMessage({ ...job, id });
      } catch (error) {
        // Not sent (a value that cannot cross): done in place by the caller.
        pending.delete(id);
        reject(error);
        settled(thread);
      }
    });
  }

  return {
    minBytes,
    minChars: minBytes,
    answered: () => ({ ...answered }),
    read: (body, shape) => run<BodyReadElsewhere>({ kind: 'readBody', body, shape }),
    diffBasis: (text) => run<BasisText>({ kind: 'diffBasis', text }),
    versionDiff: (text, previous) => run<{ diff: MatchDiff; basis: BasisText }>({ kind: 'versionDiff', text, previous }),
    teamNames: (text) => run<TeamNames>({ kind: 'teamNames', text }),
    async close() {
      if (worker !== null) end(worker, new Error('the helper thread was closed'), false);
    },
  };
}
