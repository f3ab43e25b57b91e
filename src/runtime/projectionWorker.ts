import Fastify from 'fastify';
import type { Config } from './config.js';
import { type Engine, openEngine } from './engine.js';
import { health, maxReadyLag } from '../http/health.js';
import { redactUrl } from '../platform/redactUrl.js';
import { allProjections } from '../../projections/all.js';
import { watchReadiness } from '../observability/cacheMetrics.js';
import { prettyLogStream } from '../observability/logFormat.js';
import { createMetrics, watchDataDir } from '../observability/metrics.js';
import { type MetricsListener, startMetricsListener } from '../observability/metricsListener.js';
import { watchProjections } from '../observability/projectionMetrics.js';
import { buildFacts, watchService } from '../observability/serviceMetrics.js';
import { registerMetricsRoute } from '../observability/metricsToken.js';
import { startTracing } from '../observability/tracing.js';
import { checkDataDir } from './startupFailure.js';
import { startWebhooks } from './webhooks.js';
import { loadWriteTokenKey } from './writeTokenKey.js';

export interface ProjectionWorkerOptions {
  /** How often the worker logs each projection's checkpoint and lag. */
  statusIntervalMs?: number;
  /** Where log lines go (stdout by default); tests pass a stream to read them. */
  logStream?: { write(line: string): void };
}

export interface ProjectionWorker {
  engine: Engine;
  /** Where /healthz and /readyz answer. */
  url: string;
  /** Where GET /metrics answers (METRICS_PORT), or null. */
  metricsUrl: string | null;
  /** Lets the batch in progress commit, then stops the projections and closes the stores. */
  close(): Promise<void>;
}

/**
 * A projection worker (`matchlog projections`): runs every projection of projections/all.ts
 * against EVENT_STORE_URL and READ_MODEL_URL, whatever RUN_PROJECTIONS says, with the webhooks'
 * queue and sender (src/runtime/webhooks.ts), serves /healthz
 * and /readyz on HOST:PORT, and logs each projection's checkpoint and lag at an interval.
 *
 * Several workers (and API processes running projections) may run at once: a checkpoint moves
 * for one of them per batch (ReadModelStore.commit) and the others resume from where it moved,
 * so duplicates are safe but not faster. A killed worker resumes from its stored checkpoint.
 */
export async function startProjectionWorker(config: Config, options: ProjectionWorkerOptions = {}): Promise<ProjectionWorker> {
  // The write-token key too: the webhook secrets the dashboard sealed are opened here to sign with.
  checkDataDir(config);
  const stream = options.logStream ?? (await prettyLogStream(config.logFormat));
  const app = Fastify({ logger: { level: config.logLevel, ...(stream ? { stream } : {}) } });
  const observability = {
    metrics: config.metricsPort === null && config.metricsTokenDigest === null ? null : createMetrics(),
    tracing: await startTracing(process.env, { serviceName: 'matchlog-projections' }),
  };
  const engine = await openEngine(
    { ...config, runProjections: true },
    { info: (obj, msg) => app.log.info(obj, msg), error: (obj, msg) => app.log.error(obj, msg) },
    observability,
  );
  if (observability.tracing) app.addHook('onClose', () => observability.tracing?.shutdown());
  let webhooks: { close(): Promise<void> } | null = null;
  // The engine lives as long as the app: closing the app lets the batch in progress commit, then closes the stores.
  app.addHook('onClose', async () => {
    await webhooks?.close();
    await engine.close();
  });
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  let url: string;
  let metricsListener: MetricsListener | null = null;
  try {
    // The webhooks' queue and sender run where the projections run (docs/decisions.md).
    webhooks = await startWebhooks({ ...config, runProjections: true }, engine.eventStore, loadWriteTokenKey(config), app.log);
    await app.register(health, { engine, isShuttingDown: () => shuttingDown, maxLag: maxReadyLag(engine.eventStore.positionUnit) });
    const { metrics } = observability;
    if (metrics) {
      watchProjections(metrics, engine);
      watchDataDir(metrics, config.dataDir);
      watchService(metrics, buildFacts(config), engine.readModel);
      watchReadiness(metrics, async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
      if (config.metricsTokenDigest !== null) registerMetricsRoute(app, metrics.registry, config.metricsTokenDigest);
    }
    if (metrics && config.metricsPort !== null) {
      app.addHook('onClose', async () => metricsListener?.close());
      metricsListener = await startMetricsListener(metrics.registry, config.metricsHost, config.metricsPort);
    }
    url = await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
  } catch (error) {
    await app.close();
    throw error;
  }
  app.log.info(
    {
      eventStore: redactUrl(config.eventStoreUrl),
      readModel: redactUrl(config.readModelUrl),
      projections: allProjections.map((p) => p.name),
      metrics: metricsListener?.url ?? null,
    },
    'projection worker started',
  );

  const logStatus = async () => {
    try {
      app.log.info({ projections: await engine.projectionStatus() }, 'projection status');
    } catch (err) {
      app.log.error({ err }, 'projection status unavailable');
    }
  };
  const timer = setInterval(() => void logStatus(), options.statusIntervalMs ?? 30_000);
  timer.unref();

  return {
    engine,
    url,
    metricsUrl: metricsListener?.url ?? null,
    async close() {
      clearInterval(timer);
      await app.close();
      app.log.info('projection worker stopped');
    },
  };
}
