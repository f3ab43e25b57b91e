import closeWithGrace from 'close-with-grace';
import { type App, buildApp } from '../runtime/app.js';
import { ConfigError, loadConfig } from '../runtime/config.js';
import { openEngine } from '../runtime/engine.js';
import { publicAddressWarning } from '../runtime/publicAddressCheck.js';
import { tuneGarbageCollector } from '../runtime/garbageCollector.js';
import { loadWriteTokenKey } from '../runtime/writeTokenKey.js';
import { loadLogSigner } from '../runtime/logSigningKey.js';
import { createMetrics } from '../observability/metrics.js';
import { type MetricsListener, startMetricsListener } from '../observability/metricsListener.js';
import { startTracing } from '../observability/tracing.js';
import { checkDataDir, listenFailure, oneLine, StartupError } from '../runtime/startupFailure.js';

/** Reads the configuration, opens the stores, listens, and shuts down gracefully on signals. */
async function main() {
  tuneGarbageCollector();
  let config;
  let logSigner;
  try {
    config = loadConfig();
    checkDataDir(config);
    // Before any store opens: a LOG_ORIGIN other than the key's name is refused in one line.
    logSigner = loadLogSigner(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const writeTokenKey = loadWriteTokenKey(config);
  const observability = {
    metrics: config.metricsPort === null && config.metricsTokenDigest === null ? null : createMetrics(),
    tracing: await startTracing(process.env, { serviceName: 'matchlog-api' }),
  };
  // Projections start inside openEngine, before the app and its logger exist: their first lines wait.
  const early: { level: 'info' | 'error'; obj: object; msg: string }[] = [];
  let log: App['log'] | null = null;
  const engine = await openEngine(
    config,
    {
      info: (obj, msg) => (log ? log.info(obj, msg) : early.push({ level: 'info', obj, msg })),
      error: (obj, msg) => (log ? log.error(obj, msg) : early.push({ level: 'error', obj, msg })),
    },
    observability,
  );
  let app: App;
  try {
    app = await buildApp({ config, engine, writeTokenKey, observability, logSigner });
  } catch (error) {
    await engine.close();
    throw error;
  }
  if (observability.tracing) app.addHook('onClose', () => observability.tracing?.shutdown());
  // The engine lives as long as the app: closing the app (signal, error, test) closes the stores.
  app.addHook('onClose', () => engine.close());
  // Lines of the start wait until the port is taken: a start that fails says one line, not six.
  const started = () => {
    log = app.log;
    for (const { level, obj, msg } of early.splice(0)) app.log[level](obj, msg);
  };

  // In-flight requests get SHUTDOWN_TIMEOUT_MS after SIGTERM; a slow client cannot hold the exit (exit code 1 then).
  closeWithGrace(
    {
      delay: config.shutdownTimeoutMs,
      logger: { error: (message: unknown) => app.log.error({ err: message }, 'shutdown') },
      onTimeout: (delay) => app.log.error({ delayMs: delay }, 'stopped: in-flight requests did not finish within SHUTDOWN_TIMEOUT_MS'),
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'stopping after an unexpected error');
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      await app.close();
      app.log.info('stopped');
    },
  );

  // Metrics on a listener of their own (METRICS_PORT), never on the public port.
  let metricsListener: MetricsListener | null = null;
  app.addHook('onClose', async () => metricsListener?.close());
  if (observability.metrics && config.metricsPort !== null) {
    try {
      metricsListener = await startMetricsListener(observability.metrics.registry, config.metricsHost, config.metricsPort);
      early.push({ level: 'info', obj: { url: metricsListener.url }, msg: 'metrics listening' });
    } catch (error) {
      process.stderr.write(
        `cannot listen for metrics on ${config.metricsHost}:${config.metricsPort} (${oneLine(error)}); set METRICS_PORT or METRICS_HOST to a free address\n`,
      );
      await app.close();
      process.exit(1);
    }
  }
  try {
    await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
  } catch (error) {
    // A port in use or not ours to take: one line that says what to change, and the stores closed.
    process.stderr.write(`${listenFailure(config.host, config.port, error)}\n`);
    await app.close();
    process.exit(1);
  }
  started();
  const warning = publicAddressWarning(process.env, config.host, config.publicBaseUrl);
  if (warning !== null) app.log.warn({ publicBaseUrl: config.publicBaseUrl, host: config.host }, warning);
}

// Every start-up failure is one line naming what to fix, and exit code 1; stores opened are closed before.
main().catch((error: unknown) => {
  process.stderr.write(`cannot start: ${error instanceof StartupError ? error.message : oneLine(error)}\n`);
  process.exit(1);
});
