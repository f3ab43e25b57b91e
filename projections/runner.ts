import { type AllSubscription, type EventStore, type Position, type RecordedEvent, UnreadableEventError } from '../src/eventstore/eventStore.js';
import { createDecodedPayloads, type DecodedPayloads } from '../src/domain/decodedPayloads.js';
import { CheckpointMovedError, type ProjectionCommit, type ReadModelStore } from '../src/readmodel/readModel.js';
import type { Projection } from './projection.js';
import { wakeableSleep } from '../src/platform/wakeableSleep.js';
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
}

/** One projection's progress, whichever group runs it. */
interface Member {
  projection: Projection;
  state: ProjectionStatus;
  waiters: Set<{ position: Position; resolve: (reached: boolean) => void }>;
}

/** A projection of a group threw: the group goes on without it, and it runs (and retries) alone. */
class MemberFailed extends Error {
  constructor(readonly member: Member, readonly error: unknown) {
    super(`projection ${member.projection.name} failed: ${String(error)}`);
  }
}

/** Resolves the waiters for `position` or earlier. */
function wake(member: Member, position: Position) {
  for (const waiter of member.waiters) {
    if (waiter.position <= position) {
      member.waiters.delete(waiter);
      waiter.resolve(true);
    }
  }
}

function advance(member: Member, position: Position | null) {
  const { state } = member;
  if (position === null || (state.checkpoint !== null && position <= state.checkpoint)) return;
  state.checkpoint = position;
  wake(member, position);
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
  const payloads = options.decodedPayloads ?? createDecodedPayloads();
  const members: Member[] = projections.map((projection) => ({
    projection,
    state: { name: projection.name, checkpoint: null, caughtUp: false, failure: null },
    waiters: new Set(),
  }));
  const groups: { stop(): Promise<void> }[] = [];
  let stopped = false;

  function startGroup(group: Member[]) {
    const current: { subscription: AllSubscription | null } = { subscription: null };
    const retryPause = wakeableSleep();
    const names = () => group.map((member) => member.projection.name);

    async function runOnce() {
      /** Each member's checkpoint as stored: a commit expects it, and earlier events are not applied again. */
      const stored = new Map<Member, Position | null>();
      for (const member of group) {
        const checkpoint = await readModel.getCheckpoint(member.projection.name);
        stored.set(member, checkpoint);
        // The stored checkpoint may be behind what this runner had seen, after a promoted rebuild;
        // a waiter registered before it was read is woken by it all the same.
        member.state.checkpoint = checkpoint;
        if (checkpoint !== null) wake(member, checkpoint);
        logger.info({ projection: member.projection.name, checkpoint }, 'projection running from its stored checkpoint');
      }
      const positions = [...stored.values()];
      const from = positions.every((position): position is Position => position !== null) ? Math.min(...positions) : null;
      const subscription = eventStore.subscribeToAll({ after: from, batchSize });
      current.subscription = subscription;
      /** The last append delivered, held back until it is known whole (more events, or caught up). */
      let held: RecordedEvent[] = [];
      const apply = (events: RecordedEvent[]) => (options.observer && events.length > 0 ? options.observer.batch(names(), events, () => applyNow(events)) : applyNow(events));
      const applyNow = async (events: RecordedEvent[]) => {
        const last = events.at(-1);
        if (!last) return;
        const commits: ProjectionCommit[] = [];
        /** Members with events of this batch to apply; one whose checkpoint is at or past its end keeps it. */
        const behind = group.filter((member) => {
          const after = stored.get(member) ?? null;
          return after === null || after < last.position;
        });
        for (const member of behind) {
          const after = stored.get(member) ?? null;
          const unseen = after === null ? events : events.filter((event) => event.position > after);
          const changes = await applyBatch(member.projection, readModel, unseen, (event, error) => {
            member.state.failure = { position: event.position, streamId: event.streamId, message: String(error) };
          }, eventStore, payloads).catch((error: unknown) => {
            throw group.length > 1 ? new MemberFailed(member, error) : error;
          });
          commits.push({ projection: member.projection.name, changes, checkpoint: last.position, expected: after });
        }
        try {
          await readModel.commitAll(commits);
        } catch (error) {
          // Shown in status (and /readyz) like an apply error: a full disk must not look ready.
          if (!(error instanceof CheckpointMovedError)) {
            for (const member of behind) member.state.failure = { position: last.position, streamId: last.streamId, message: `commit failed: ${String(error)}` };
          }
          throw error;
        }
        for (const member of behind) {
          stored.set(member, last.position);
          member.state.failure = null;
          advance(member, last.position);
        }
        payloads.forget(events.map((event) => event.id));
      };
      try {
        for await (const item of subscription) {
          if (stopped) break;
          if (item.kind === 'caughtUp') {
            // Appends are atomic: caught up, the held append is whole.
            await apply(held);
            held = [];
            for (const member of group) {
              member.state.caughtUp = true;
              advance(member, item.position);
            }
            continue;
          }
          for (const member of group) member.state.caughtUp = false;
          const { ready, held: rest } = holdLastAppend([...held, ...item.events]);
          held = rest;
          await apply(ready);
        }
      } catch (error) {
        // An unreadable event of another stream ends the held append: it is whole, apply it first.
        if (error instanceof UnreadableEventError && held[0] !== undefined && held[0].streamId !== error.streamId) await apply(held);
        throw error;
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
          await current.subscription?.close();
          if (error instanceof CheckpointMovedError) {
            // Another worker or a promoted rebuild moved it: not a failure, just go on from there.
            logger.info({ projection: error.projection, checkpoint: error.actual }, 'checkpoint moved; resuming from it');
            continue;
          }
          for (const member of error instanceof MemberFailed ? [error.member] : group) options.observer?.failed(member.projection.name);
          if (error instanceof MemberFailed) {
            logger.error({ err: error.error, projection: error.member.projection.name, failure: error.member.state.failure }, 'projection failed; it runs alone and retries, the others go on');
            group.splice(group.indexOf(error.member), 1);
            startGroup([error.member]);
            continue;
          }
          if (error instanceof UnreadableEventError) {
            // The log holds an event the store cannot give whole: every member stops before it, and /readyz says where.
            const position = Number(error.position);
            for (const member of group) {
              member.state.failure = { position: Number.isSafeInteger(position) ? position : (member.state.checkpoint ?? 0), streamId: error.streamId, message: error.message };
            }
          }
          logger.error({ err: error, projections: names(), failure: group[0]?.state.failure }, 'projection failed; retrying');
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
      for (const member of members) {
        for (const waiter of member.waiters) waiter.resolve(false);
        member.waiters.clear();
      }
    })());

  return members.map((member) => ({
    name: member.projection.name,
    status: () => ({ ...member.state }),
    waitFor(position, timeoutMs) {
      if (member.state.checkpoint !== null && member.state.checkpoint >= position) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (reached: boolean) => {
            clearTimeout(timer);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => {
          member.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        member.waiters.add(waiter);
      });
    },
    stop: stopAll,
  }));
}

/** Runs one projection on its own (rebuilds, tests): `runProjections` with a group of one. */
export function runProjection(projection: Projection, eventStore: EventStore, readModel: ReadModelStore, logger: ProjectionLogger, options: RunnerOptions = {}): RunningProjection {
  const [running] = runProjections([projection], eventStore, readModel, logger, options);
  if (!running) throw new Error('unreachable: one projection gives one runner');
  return running;
}
