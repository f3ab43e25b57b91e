import { createDecodedPayloads, type DecodedPayloads } from '../src/domain/decodedPayloads.js';
import { type AllSubscription, type EventStore, type Position, type RecordedEvent, UnreadableEventError } from '../src/eventstore/eventStore.js';
import { CheckpointMovedError, type ReadModelStore } from '../src/readmodel/readModel.js';
import { wakeableSleep } from '../src/platform/wakeableSleep.js';
import type { OffLoopWork, Projection } from './projection.js';
import { type CommitDeps, type Failure, MemberFailed } from './runnerCommit.js';
import { createProjectionMemory } from './projectionMemory.js';
import { createProgress } from './runnerProgress.js';
import { type GroupMember, type PassContext, runPass } from './runnerPass.js';

export interface ProjectionLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ProjectionStatus {
  name: string;
  checkpoint: Position | null;
  caughtUp: boolean;
  /** The last failure, while the runner is retrying it. */
  failure: Failure | null;
}

export interface RunningProjection {
  readonly name: string;
  status(): ProjectionStatus;
  /** Resolves true once everything up to `position` is applied, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** Watches batches (metrics, traces): wraps each apply-and-commit, and hears of each failure. */
export interface BatchObserver {
  /** Runs `run` (one batch of these projections over `events`) and resolves or rejects as it does. */
  batch<T>(projections: readonly string[], events: readonly RecordedEvent[], run: () => Promise<T>): Promise<T>;
  failed(projection: string): void;
}

export interface RunnerOptions {
  observer?: BatchObserver;
  batchSize?: number;
  /** Waits after a failure, doubling up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** The process's parsed payloads, shared with its write path (the engine's); the runner's own by default. */
  decodedPayloads?: DecodedPayloads;
  /** Where projections may have work done off the event loop (the engine's helper thread); none by default. */
  offLoop?: OffLoopWork;
  /** How often a group between batches reads its stored checkpoints to see whether another process moved them. */
  checkpointWatchMs?: number;
}

/**
 * Runs projections together: one subscription to the log from the earliest of their stored
 * checkpoints, each batch applied to every projection (an event only to those whose checkpoint
 * is behind it), and all their documents and checkpoints committed in one read-model commit.
 * A checkpoint never moves back: a projection whose checkpoint is at or past a batch's end (one
 * added later, rebuilt, or restarted alone is behind the others) is left out of its commit.
 * The log is read, and each payload decoded, once per batch for all of them.
 *
 * A failing event is never skipped. A projection that throws leaves the group and runs alone
 * from its own checkpoint, retrying with backoff until it succeeds or is stopped; the others
 * go on. It is reported in `status()` meanwhile.
 */
export function runProjections(
  projections: readonly Projection[],
  eventStore: EventStore,
  readModel: ReadModelStore,
  logger: ProjectionLogger,
  options: RunnerOptions = {},
): RunningProjection[] {
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const deps: CommitDeps = {
    readModel,
    eventStore,
    payloads: options.decodedPayloads ?? createDecodedPayloads(),
    offLoop: options.offLoop ?? null,
    memory: createProjectionMemory(),
  };
  const members: GroupMember[] = projections.map((projection) => ({ projection, progress: createProgress(), caughtUp: false, failure: null }));
  const groups: { stop(): Promise<void> }[] = [];
  let stopped = false;

  const context: Omit<PassContext, 'observe' | 'subscribed'> = {
    eventStore,
    readModel,
    logger,
    deps,
    batchSize: options.batchSize ?? 100,
    checkpointWatchMs: options.checkpointWatchMs ?? 1000,
    stopped: () => stopped,
  };

  function startGroup(group: GroupMember[]) {
    const current: { subscription: AllSubscription | null } = { subscription: null };
    const retryPause = wakeableSleep();
    const names = () => group.map((member) => member.projection.name);
    const pass: PassContext = {
      ...context,
      observe: (events, commit) => (options.observer ? options.observer.batch(names(), events, commit) : commit()),
      subscribed: (subscription) => {
        current.subscription = subscription;
      },
    };

    /** Runs passes until stopped, telling why each one that failed did, and waiting before retrying a failure. */
    const done = (async () => {
      let delay = retryDelayMs;
      while (!stopped) {
        try {
          await runPass(group, pass);
          delay = retryDelayMs;
        } catch (error) {
          if (stopped) break;
          await current.subscription?.close();
          if (error instanceof CheckpointMovedError) {
            // Another worker or a promoted rebuild moved it: not a failure, just go on from there.
            logger.info({ projection: error.projection, checkpoint: error.actual }, 'checkpoint moved; resuming from it');
            continue;
          }
          const failed = error instanceof MemberFailed ? group.find((member) => member === error.member) : undefined;
          for (const member of failed ? [failed] : group) options.observer?.failed(member.projection.name);
          if (error instanceof MemberFailed && failed) {
            logger.error(
              { err: error.error, projection: failed.projection.name, failure: failed.failure },
              'projection failed; it runs alone and retries, the others go on',
            );
            group.splice(group.indexOf(failed), 1);
            startGroup([failed]);
            continue;
          }
          if (error instanceof UnreadableEventError) markUnreadable(group, error);
          logger.error({ err: error, projections: names(), failure: group[0]?.failure }, 'projection failed; retrying');
          await retryPause.sleep(delay);
          delay = Math.min(delay * 2, maxRetryDelayMs);
        }
      }
    })();

    groups.push({
      async stop() {
        retryPause.wake();
        await current.subscription?.close();
        await done;
      },
    });
  }

  if (members.length > 0) startGroup([...members]);

  let stopping: Promise<void> | null = null;
  const stopAll = () =>
    (stopping ??= (async () => {
      stopped = true;
      // A group may start another while stopping (a member that failed): stop until none is left.
      while (groups.length > 0) await Promise.all(groups.splice(0).map((group) => group.stop()));
      for (const member of members) member.progress.release();
    })());

  return members.map((member) => ({
    name: member.projection.name,
    status: () => ({ name: member.projection.name, checkpoint: member.progress.checkpoint(), caughtUp: member.caughtUp, failure: member.failure }),
    waitFor: (position, timeoutMs) => member.progress.waitFor(position, timeoutMs),
    stop: stopAll,
  }));
}

/** The log holds an event the store cannot give whole: every member stops before it, and /readyz says where. */
function markUnreadable(group: readonly GroupMember[], error: UnreadableEventError) {
  const position = Number(error.position);
  for (const member of group) {
    member.failure = {
      position: Number.isSafeInteger(position) ? position : (member.progress.checkpoint() ?? 0),
      streamId: error.streamId,
      message: error.message,
    };
  }
}

/** Runs one projection on its own (rebuilds, tests): `runProjections` with a group of one. */
export function runProjection(
  projection: Projection,
  eventStore: EventStore,
  readModel: ReadModelStore,
  logger: ProjectionLogger,
  options: RunnerOptions = {},
): RunningProjection {
  const [running] = runProjections([projection], eventStore, readModel, logger, options);
  if (!running) throw new Error('unreachable: one projection gives one runner');
  return running;
}
