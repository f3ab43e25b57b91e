import { createInterface } from 'node:readline';
import { openSqliteFile } from '../../src/platform/sqliteFile.js';

/**
 * A child process for the concurrent-open test: for each file path read from stdin it opens the
 * file as the service does and answers `ok` or the error's code, so that two of these open the
 * same new file at the same moment.
 */
createInterface({ input: process.stdin }).on('line', (file) => {
  try {
    openSqliteFile(file, 'FULL').close();
    process.stdout.write('ok\n');
  } catch (error) {
    process.stdout.write(`${String((error as { code?: unknown }).code ?? error)}\n`);
  }
});
