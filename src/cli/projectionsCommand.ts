import { parseArgs } from 'node:util';
import closeWithGrace from 'close-with-grace';
import { startProjectionWorker } from '../runtime/projectionWorker.js';
import { serviceConfig } from './stores.js';
import { tuneGarbageCollector } from '../runtime/garbageCollector.js';
import type { CliCommand } from './command.js';

export const projectionsCommand: CliCommand = {
  name: 'projections',
  summary: 'run the projection worker against EVENT_STORE_URL and READ_MODEL_URL until SIGTERM',
  usage: 'matchlog projections [--status-interval <seconds>]   (health on HOST:PORT: /healthz, /readyz)',
  async run(args, io) {
    let statusIntervalMs: number;
    try {
      const { values } = parseArgs({ args, options: { 'status-interval': { type: 'string', default: '30' } } });
      statusIntervalMs = Number(values['status-interval']) * 1000;
      if (!Number.isFinite(statusIntervalMs) || statusIntervalMs <= 0) throw new Error('--status-interval must be a positive number of seconds');
    } catch (error) {
      io.err(`matchlog projections: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    const config = serviceConfig(io);
    if (config === null) return 2;
    tuneGarbageCollector();
    let worker;
    try {
      worker = await startProjectionWorker(config, { statusIntervalMs });
    } catch (error) {
      // A port in use, or a store that cannot be opened: one line, and the stores already closed.
      const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
      io.err(`matchlog projections: cannot start${code}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    // Runs until a signal (or an unexpected error): the batch in progress commits, the stores
    // close, and close-with-grace exits (0; 1 after an error, a second signal or SHUTDOWN_TIMEOUT_MS).
    const running = worker;
    const say = (message: unknown) => io.err(`matchlog projections: ${message instanceof Error ? message.stack : String(message)}\n`);
    return new Promise<number>(() => {
      closeWithGrace({ delay: config.shutdownTimeoutMs, logger: { error: say } }, async ({ err }) => {
        if (err) say(err);
        await running.close();
      });
    });
  },
};
