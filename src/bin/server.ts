import closeWithGrace from 'close-with-grace';
import { type App, buildApp } from '../runtime/app.js';
import { ConfigError, loadConfig } from '../runtime/config.js';
import { openEngine } from '../runtime/engine.js';
import { publicAddressWarning } from '../runtime/publicAddressCheck.js';
import { tuneGarbageCollector } from '../runtime/garbageCollector.js';
import { loadWriteTokenKey } from '../runtime/writeTokenKey.js';

/** Reads the configuration, opens the stores, listens, and shuts down gracefully on signals. */
async function main() {
  tuneGarbageCollector();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const writeTokenKey = loadWriteTokenKey(config);
  // Projections start inside openEngine, before the app and its logger exist: their first lines wait.
  const early: { level: 'info' | 'error'; obj: object; msg: string }[] = [];
  let log: App['log'] | null = null;
  const engine = await openEngine(config, {
    info: (obj, msg) => (log ? log.info(obj, msg) : early.push({ level: 'info', obj, msg })),
    error: (obj, msg) => (log ? log.error(obj, msg) : early.push({ level: 'error', obj, msg })),
  });
  let app: App;
  try {
    app = await buildApp({ config, engine, writeTokenKey });
  } catch (error) {
    await engine.close();
    throw error;
  }
  // The engine lives as long as the app: closing the app (signal, error, test) closes the stores.
  app.addHook('onClose', () => engine.close());
  log = app.log;
  for (const { level, obj, msg } of early.splice(0)) app.log[level](obj, msg);

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

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A port in use or not ours to take: one line that says what to change, and the stores closed.
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
    process.stderr.write(`cannot listen on ${config.host}:${config.port}${code}: ${error instanceof Error ? error.message : String(error)}; set PORT or HOST to a free address\n`);
    await app.close();
    process.exit(1);
  }
  const warning = publicAddressWarning(process.env, config.host, config.publicBaseUrl);
  if (warning !== null) app.log.warn({ publicBaseUrl: config.publicBaseUrl, host: config.host }, warning);
}

void main();
