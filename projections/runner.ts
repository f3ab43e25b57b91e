import { createDecodedPayloads, type DecodedPayloads } from '../src/domain/decodedPayloads.js';
import { type AllSubscription, type EventStore, type Position, type RecordedEvent, UnreadableEventError } from '../src/eventstore/eventStore.js';
import { CheckpointMovedError, type ReadModelStore } from '../src/readmodel/readModel.js';
import { wakeableSleep } from '../src/platform/wakeableSleep.js';
import type { OffLoopWork, Projection } from './projection.js';
import { type CommitDeps, commitBatch, type Failure, MemberFailed } from './runnerCommit.js';
import { createProgress, type Progress } from './runnerProgress.js';
import { type Batch, initialRunnerState, nextRunnerState, type RunnerEffect, type RunnerInput, subscribeAfter } from './runnerState.js';

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

/** One projection's progress, whichever group runs it. */
interface Member {
  readonly projection: Projection;
  readonly progress: Progress;
  caughtUp: boolean;
  failure: Failure | null;
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
  const batchSize = options.batchSize ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const checkpointWatchMs = options.checkpointWatchMs ?? 1000;
  const deps: CommitDeps = { readModel, eventStore, payloads: options.decodedPayloads ?? createDecodedPayloads(), offLoop: options.offLoop ?? null };
  const members: Member[] = projections.map((projection) => ({ projection, progress: createProgress(), caughtUp: false, failure: null }));
  const groups: { stop(): Promise<void> }[] = [];
  let stopped = false;

  function startGroup(group: Member[]) {
    const current: { subscription: AllSubscription | null } = { subscription: null };
    const retryPause = wakeableSleep();
    const names = () => group.map((member) => member.projection.name);

    /** One pass: from the stored checkpoints until the subscription ends (stopped) or fails. */
    async function runOnce() {
      const stored = new Map<string, Position | null>();
      for (const member of group) {
        const checkpoint = await readModel.getCheckpoint(member.projection.name);
        stored.set(member.projection.name, checkpoint);
        member.progress.restart(checkpoint);
        logger.info({ projection: member.projection.name, checkpoint }, 'projection running from its stored checkpoint');
      }
      const byName = new Map(group.map((member) => [member.projection.name, member]));
      let state = initialRunnerState(stored);
      const subscription = eventStore.subscribeToAll({ after: subscribeAfter(state), batchSize });
      current.subscription = subscription;

      const commit = async (batch: Batch) => {
        await commitBatch(batch, byName, deps);
        await feed({ type: 'committed', batch });
      };

      // A commit finds a checkpoint another process moved (CheckpointMovedError), but a group
      // with nothing to commit would never: `matchlog rebuild --start-over` on a quiet system
      // left it caught up by its own count while the stored checkpoint said to replay the log.
      // So between batches the group reads what is stored, and starts a pass from it if that
      // is not what its state says (what this pass read or committed last).
      let feeding = false;
      let fed = 0;
      let watching = false;
      const watch = setInterval(async () => {
        if (feeding || watching) return;
        watching = true;
        const since = fed;
        for (const [name, expected] of state.stored) {
          // A read that fails is no news: the next commit, or the next look, tells.
          const actual = await readModel.getCheckpoint(name).catch(() => expected);
          if (feeding || fed !== since) break;
          if (actual !== expected) {
            logger.info({ projection: name, checkpoint: actual }, 'checkpoint moved; resuming from it');
            clearInterval(watch);
            await subscription.close();
            break;
          }
        }
        watching = false;
      }, checkpointWatchMs);
      async function perform(effect: RunnerEffect) {
        switch (effect.type) {
          case 'apply':
            await (options.observer ? options.observer.batch(names(), effect.batch.events, () => commit(effect.batch)) : commit(effect.batch));
            return;
          case 'reached':
            for (const name of effect.projections) byName.get(name)?.progress.reach(effect.position);
            return;
          case 'caughtUp':
            for (const member of group) {
              member.caughtUp = true;
              member.progress.reach(effect.position);
            }
            return;
          case 'fellBehind':
            for (const member of group) member.caughtUp = false;
        }
      }
      async function feed(input: RunnerInput) {
        const next = nextRunnerState(state, input);
        state = next.state;
        for (const effect of next.effects) await perform(effect);
      }

      try {
        for await (const item of subscription) {
          if (stopped) break;
          feeding = true;
          await feed(item.kind === 'caughtUp' ? { type: 'caughtUp', position: item.position } : { type: 'delivered', events: item.events });
          feeding = false;
          fed += 1;
        }
      } catch (error) {
        if (error instanceof UnreadableEventError) await feed({ type: 'unreadable', streamId: error.streamId });
        throw error;
      } finally {
        clearInterval(watch);
      }
    }

    /** Runs passes until stopped, telling why each one that failed did, and waiting before retrying a failure. */
    const done = (async () => {
      let delay = retryDelayMs;
      while (!stopped) {
        try {
          await runOnce();
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
          if (error instanceof UnreadableEventError) {
            // The log holds an event the store cannot give whole: every member stops before it, and /readyz says where.
            const position = Number(error.position);
            for (const member of group) {
              member.failure = {
                position: Number.isSafeInteger(position) ? position : (member.progress.checkpoint() ?? 0),
                streamId: error.streamId,
                message: error.message,
              };
            }
          }
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
