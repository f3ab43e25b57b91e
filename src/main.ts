import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openEngine } from './engine.js';
import { loadWriteTokenKey } from './writeTokenKey.js';

/** Reads the configuration, opens the stores, listens, and shuts down gracefully on signals. */
async function main() {
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
  const engine = await openEngine(config, {
    info: (obj, msg) => app.log.info(obj, msg),
    error: (obj, msg) => app.log.error(obj, msg),
  });
  const app = await buildApp({ config, engine, writeTokenKey });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    await engine.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

void main();
