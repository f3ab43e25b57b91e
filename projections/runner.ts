import type { AllSubscription, EventStore, Position, RecordedEvent } from '../src/eventstore/port.js';
import { CheckpointMovedError, type ReadModelStore } from '../src/readmodel/port.js';
import type { Projection } from './projection.js';
import { wakeableSleep } from '../src/wakeableSleep.js';
import { holdLastAppend } from './appends.js';
import { applyBatch } from './unitOfWork.js';

export interface ProjectionLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ProjectionStatus {
  name: string;
  checkpoint: Position | null;
  caughtUp: boolean;
  /** The last failure, while the runner is retrying it. */
  failure: { position: Position; streamId: string; message: string } | null;
}

export interface RunningProjection {
  readonly name: string;
  status(): ProjectionStatus;
  /** Resolves true once everything up to `position` is applied, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

export interface RunnerOptions {
  batchSize?: number;
  /** Waits after a failure, doubling up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

/**
 * Runs one projection: subscribe to the log from the stored checkpoint, apply each batch,
 * commit the documents and the new checkpoint together.
 *
 * A failing event is never skipped: the runner logs it, reports it in `status()`, and retries
 * the batch from the checkpoint with backoff until it succeeds or is stopped.
 */
export function runProjection(
  projection: Projection,
  eventStore: EventStore,
  readModel: ReadModelStore,
  logger: ProjectionLogger,
  options: RunnerOptions = {},
): RunningProjection {
  const batchSize = options.batchSize ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const state: ProjectionStatus = { name: projection.name, checkpoint: null, caughtUp: false, failure: null };
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>();
  let stopped = false;
  const current: { subscription: AllSubscription | null } = { subscription: null };
  const retryPause = wakeableSleep();

  function advance(position: Position | null) {
    if (position === null || (state.checkpoint !== null && position <= state.checkpoint)) return;
    state.checkpoint = position;
    for (const waiter of waiters) {
      if (waiter.position <= position) {
        waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  async function runOnce() {
    let checkpoint = await readModel.getCheckpoint(projection.name);
    // The stored checkpoint may be behind what this runner had seen, after a promoted rebuild.
    state.checkpoint = checkpoint;
    advance(checkpoint);
    logger.info({ projection: projection.name, checkpoint }, 'projection running from its stored checkpoint');
    const subscription = eventStore.subscribeToAll({ after: checkpoint, batchSize });
    current.subscription = subscription;
    /** The last append delivered, held back until it is known whole (more events, or caught up). */
    let held: RecordedEvent[] = [];
    const apply = async (events: RecordedEvent[]) => {
      const last = events.at(-1);
      if (!last) return;
      const changes = await applyBatch(projection, readModel, events, (event, error) => {
        state.failure = { position: event.position, streamId: event.streamId, message: String(error) };
      }, eventStore);
      try {
        await readModel.commit(projection.name, changes, last.position, checkpoint);
      } catch (error) {
        // Shown in status (and /readyz) like an apply error: a full disk must not look ready.
        if (!(error instanceof CheckpointMovedError)) state.failure = { position: last.position, streamId: last.streamId, message: `commit failed: ${String(error)}` };
        throw error;
      }
      checkpoint = last.position;
      state.failure = null;
      advance(last.position);
    };
    for await (const item of subscription) {
      if (stopped) break;
      if (item.kind === 'caughtUp') {
        // Appends are atomic: caught up, the held append is whole.
        await apply(held);
        held = [];
        state.caughtUp = true;
        advance(item.position);
        continue;
      }
      state.caughtUp = false;
      const { ready, held: rest } = holdLastAppend([...held, ...item.events]);
      held = rest;
      await apply(ready);
    }
  }

  const done = (async () => {
    let delay = retryDelayMs;
    while (!stopped) {
      try {
        await runOnce();
        delay = retryDelayMs;
      } catch (error) {
        if (stopped) break;
        if (error instanceof CheckpointMovedError) {
          // Another worker or a promoted rebuild moved it: not a failure, just go on from there.
          logger.info({ projection: projection.name, checkpoint: error.actual }, 'checkpoint moved; resuming from it');
          await current.subscription?.close();
          continue;
        }
        logger.error({ err: error, projection: projection.name, failure: state.failure }, 'projection failed; retrying');
        await current.subscription?.close();
        await retryPause.sleep(delay);
        delay = Math.min(delay * 2, maxRetryDelayMs);
      }
    }
  })();

  return {
    name: projection.name,
    status: () => ({ ...state }),
    waitFor(position, timeoutMs) {
      if (state.checkpoint !== null && state.checkpoint >= position) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (reached: boolean) => {
            clearTimeout(timer);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async stop() {
      stopped = true;
      retryPause.wake();
      await current.subscription?.close();
      await done;
      for (const waiter of waiters) waiter.resolve(false);
      waiters.clear();
    },
  };
}
