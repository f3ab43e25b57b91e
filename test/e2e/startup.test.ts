import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { runCli } from '../../src/cli/commands.js';
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

/** A loopback port another server holds for the test, and an empty data folder. */
async function portInUse(t: Test): Promise<{ port: number; dataDir: string }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const address = taken.address();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-port-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  return { port: typeof address === 'object' && address !== null ? address.port : 0, dataDir };
}

t.test('a port in use stops the server with one clear line and exit code 1, and its stores are closed', async (t) => {
  const { port, dataDir } = await portInUse(t);
  const main = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...typescriptExecArgv(), main], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(result.status, 1);
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 1, 'one line');
  t.match(lines[0], new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\): .*; set PORT or HOST to a free address$`));
});

t.test('the projection worker on a port in use says so in one line, exits 1 and closes its stores', async (t) => {
  const { port, dataDir } = await portInUse(t);
  const errors: string[] = [];
  const io = { out: () => {}, err: (text: string) => errors.push(text), env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } };
  t.equal(await runCli(['projections'], io), 1);
  const lines = errors.join('').trim().split('\n');
  t.equal(lines.length, 1, 'one line');
  t.match(lines[0], new RegExp(`^matchlog projections: cannot start \\(EADDRINUSE\\): .*127\\.0\\.0\\.1:${port}`));
  // SQLite removes a WAL file when the last connection closes.
  t.same(
    ['events.sqlite-wal', 'readmodel.sqlite-wal'].filter((file) => existsSync(join(dataDir, file))),
    [],
    'both stores closed',
  );
});
