import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/runtime/config.js';
import { openEngine } from '../../src/runtime/engine.js';

/**
 * A child process for the concurrent-open test: for each data folder read from stdin it opens the
 * embedded stores there as the server does and answers `ok` or the error's code, so that two of
 * these can open the same new folder at the same moment.
 */
const quiet = { info() {}, error() {} };
for await (const dataDir of createInterface({ input: process.stdin })) {
  try {
    await (await openEngine(loadConfig({ DATA_DIR: dataDir, RUN_PROJECTIONS: 'no' }), quiet)).close();
    process.stdout.write('ok\n');
  } catch (error) {
    process.stdout.write(`${String((error as { code?: unknown }).code ?? error)}\n`);
  }
}
