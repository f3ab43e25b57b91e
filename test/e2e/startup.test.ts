import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

t.test('a bad configuration stops the server at start with one clear line', async (t) => {
  const main = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...typescriptExecArgv(), main], {
    env: { ...process.env, PORT: 'eighty', DATA_DIR: '/nonexistent-never-created' },
    encoding: 'utf8',
  });
  t.equal(result.status, 2);
  t.equal(result.stderr.trim(), 'invalid configuration: PORT must be an integer from 0 to 65535, got "eighty"');
});
