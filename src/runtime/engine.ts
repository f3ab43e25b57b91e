import { type Config, deltaOptions } from './config.js';
import { createDecodedPayloads, type DecodedPayloads } from '../domain/decodedPayloads.js';
import { openEventStore } from '../eventstore/openEventStore.js';
import type { EventStore, Position } from '../eventstore/eventStore.js';
import type { LocalCommits } from '../live/changeSignal.js';
import { publicViewCommits } from '../live/publicViewCommits.js';
import { openReadModel } from '../readmodel/openReadModel.js';
import type { ReadModelStore } from '../readmodel/readModel.js';
import { type ReportedCommits, reportingCommits } from '../readmodel/reportedCommits.js';
import { allProjections, readYourWritesProjections } from '../../projections/all.js';
import { PUBLIC_VIEW } from '../../projections/publicView.js';
import { type ProjectionLogger, type ProjectionStatus, type RunningProjection, runProjections } from '../../projections/runner.js';
import { type Observability, observeBatches, observeEventStore, unobserved } from '../observability/observability.js';
import { redactUrl } from '../platform/redactUrl.js';
import { opening } from './startupFailure.js';
import { createHelperThread, type HelperThread } from './helperThread.js';
import { createCheckpointPoll } from './checkpointPoll.js';

export interface Engine {
  eventStore: EventStore;
  readModel: ReadModelStore;
  /**
   * Resolves true once the read models a reader sees include `position`; false on timeout.
   * With `eventTypes` (those of the append), only the projections they change are waited for.
   */
  waitForReaders(position: Position, timeoutMs: number, eventTypes?: readonly string[]): Promise<boolean>;
  projectionStatus(): Promise<(ProjectionStatus & { lag: number })[]>;
  /** The public view's checkpoint: from memory where the projection runs in this process, else from the store. */
  publicViewCheckpoint(): Promise<Position | null>;
  /** This process's own public-view commits, each with the matches it changed; null when projections run elsewhere. */
  publicViewCommits: LocalCommits | null;
  /** All the commits of the projections this process runs; null when they run elsewhere. */
  commits: ReportedCommits | null;
  /** This process's parsed payloads: the write path hands over what a request parsed, the projections read it once per batch. */
  decodedPayloads: DecodedPayloads;
  /** Where large payloads are parsed off the event loop (HELPER_THREAD_BYTES), for the write path and the projections; null: nowhere. */
  helperThread: HelperThread | null;
  close(): Promise<void>;
}

/**
 * Opens the stores named by the configuration and, when asked, runs the projections in this
 * process. Without in-process projections, read-your-writes polls the stored checkpoints.
 */
export async function openEngine(
  config: Pick<Config, 'eventStoreUrl' | 'readModelUrl' | 'runProjections' | 'esdbMaxAppendBytes'> &
    Partial<Pick<Config, 'deltaKeyframeInterval' | 'deltaCacheBytes' | 'helperThreadBytes'>>,
  logger: ProjectionLogger,
  observability: Observability = unobserved,
): Promise<Engine> {
  const { metrics } = observability;
  const onGroupCommit = metrics
    ? (appends: number, seconds: number) => {
        metrics.groupCommitAppends.observe(appends);
        metrics.fsyncSeconds.observe(seconds);
      }
    : undefined;
  // A store that cannot open is a StartupError naming it; one already open is closed first.
  const opened = await opening(
    `the event store ${redactUrl(config.eventStoreUrl)}`,
    'check EVENT_STORE_URL and DATA_DIR, or restore the log from a backup (matchlog restore)',
    () =>
      openEventStore(config.eventStoreUrl, {
        esdbMaxAppendBytes: config.esdbMaxAppendBytes,
        logger,
        deltas: deltaOptions(config),
        ...(onGroupCommit ? { onGroupCommit } : {}),
      }),
  );
  const eventStore = observeEventStore(opened, observability);
  let readModel: ReadModelStore;
  try {
    readModel = await opening(
      `the read models ${redactUrl(config.readModelUrl)}`,
      'check READ_MODEL_URL; read models are rebuilt from the log, so a damaged SQLite read-model file may be removed',
      async () => {
        const store = await openReadModel(config.readModelUrl);
        try {
          for (const projection of allProjections) await store.ensureIndexes(projection.indexes);
        } catch (error) {
          await store.close();
          throw error;
        }
        return store;
      },
    );
  } catch (error) {
    await eventStore.close();
    throw error;
  }
  const reported = reportingCommits(readModel);
  const observer = observeBatches(observability);
  const decodedPayloads = createDecodedPayloads();
  const helperThreadBytes = config.helperThreadBytes ?? 0;
  const helperThread =
    helperThreadBytes > 0
      ? createHelperThread({
          minBytes: helperThreadBytes,
          onFailure: (error) => logger.error({ err: error }, 'the helper thread failed: large payloads are parsed on the event loop until it starts again'),
        })
      : null;
  const running: RunningProjection[] = config.runProjections
    ? runProjections(allProjections, eventStore, reported.store, logger, {
        decodedPayloads,
        ...(helperThread ? { offLoop: helperThread } : {}),
        ...(observer ? { observer } : {}),
      })
    : [];

  async function checkpoints(): Promise<Map<string, Position | null>> {
    const byName = new Map<string, Position | null>();
    for (const projection of allProjections) {
      const inProcess = running.find((r) => r.name === projection.name);
      byName.set(projection.name, inProcess ? inProcess.status().checkpoint : await readModel.getCheckpoint(projection.name));
    }
    return byName;
  }

  // One poll for every waiting write, of the checkpoints they wait for (the store read at each call, so it can be watched).
  const poll = createCheckpointPoll((projection) => readModel.getCheckpoint(projection));

  const localPublicView = running.find((r) => r.name === PUBLIC_VIEW) ?? null;

  return {
    eventStore,
    readModel,
    publicViewCheckpoint: async () => (localPublicView ? localPublicView.status().checkpoint : readModel.getCheckpoint(PUBLIC_VIEW)),
    publicViewCommits: localPublicView ? publicViewCommits(reported.commits, PUBLIC_VIEW) : null,
    commits: running.length > 0 ? reported.commits : null,
    decodedPayloads,
    helperThread,
    async waitForReaders(position, timeoutMs, eventTypes) {
      const names = eventTypes === undefined ? allProjections.map((p) => p.name) : readYourWritesProjections(eventTypes);
      if (running.length === 0) return poll.waitFor(names, position, timeoutMs);
      const waits = running.filter((r) => names.includes(r.name)).map((r) => r.waitFor(position, timeoutMs));
      return (await Promise.all(waits)).every(Boolean);
    },
    async projectionStatus() {
      const head = (await eventStore.headPosition()) ?? 0;
      const reached = await checkpoints();
      return allProjections.map((projection) => {
        const inProcess = running.find((r) => r.name === projection.name)?.status();
        const checkpoint = reached.get(projection.name) ?? null;
        return {
          name: projection.name,
          checkpoint,
          caughtUp: inProcess?.caughtUp ?? head - (checkpoint ?? 0) === 0,
          failure: inProcess?.failure ?? null,
          lag: head - (checkpoint ?? 0),
        };
      });
    },
    async close() {
      poll.close();
      await Promise.all(running.map((r) => r.stop()));
      await helperThread?.close();
      await readModel.close();
      await eventStore.close();
    },
  };
}
