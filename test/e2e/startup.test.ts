import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

t.test('a port in use stops the server with one line saying the port is taken, nothing else at the default log level, and exit code 1', async (t) => {
  const { port, dataDir } = await portInUse(t);
  const main = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...typescriptExecArgv(), main], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', METRICS_PORT: '0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(result.status, 1);
  t.equal(result.stdout, '', 'no log lines: the projections and the metrics listener are not announced for a start that failed');
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 1, 'one line');
  t.match(
    lines[0],
    new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\): the port is taken by another process; stop it, or set PORT to a free port$`),
  );
  t.notMatch(result.stderr, /file descriptors|serving on/, 'not mistaken for a failed accept');
});

t.test('the projection worker on a port in use says so in one line, exits 1 and closes its stores', async (t) => {
  const { port, dataDir } = await portInUse(t);
  const errors: string[] = [];
  const io = {
    out: () => {},
    err: (text: string) => errors.push(text),
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  };
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

/** Starts the real server on `dataDir` and returns its exit code and what it wrote to stderr. */
function startFailing(dataDir: string, env: Record<string, string> = {}) {
  const main = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...typescriptExecArgv(), main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, lines: result.stderr.trim().split('\n') };
}

function emptyDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('start-up failures: each is one line naming what to fix, exit code 1, no store left open', async (t) => {
  t.test('a DATA_DIR that cannot be made (its parent is a file)', async (t) => {
    const dir = emptyDir(t);
    writeFileSync(join(dir, 'file'), '');
    const { status, lines } = startFailing(join(dir, 'file', 'data'));
    t.equal(status, 1);
    t.same(lines.length, 1, lines.join('\n'));
    t.match(
      lines[0],
      /^cannot start: DATA_DIR .*\/file\/data is not a writable folder \(ENOTDIR\): .*; create it, let this user write to it, or set DATA_DIR$/,
    );
  });

  t.test(
    'a DATA_DIR this user cannot write',
    { skip: process.getuid?.() === 0 ? 'root writes anywhere: run the tests as another user to check this one' : false },
    async (t) => {
      const dir = emptyDir(t);
      chmodSync(dir, 0o500);
      t.teardown(() => chmodSync(dir, 0o700));
      const { status, lines } = startFailing(dir);
      t.equal(status, 1);
      t.same(lines.length, 1, lines.join('\n'));
      t.match(lines[0], /^cannot start: DATA_DIR .* is not a writable folder \(EACCES\): /);
    },
  );

  t.test('a log that is not a SQLite database', async (t) => {
    const dir = emptyDir(t);
    writeFileSync(join(dir, 'events.sqlite'), 'this is not a database, it is a note '.repeat(200));
    const { status, lines } = startFailing(dir);
    t.equal(status, 1);
    t.same(lines.length, 1, lines.join('\n'));
    t.match(
      lines[0],
      new RegExp(
        /^cannot start: the event store sqlite:.*\/events\.sqlite cannot be opened \(SQLITE_NOTADB\): file is not a database; /.source +
          /check EVENT_STORE_URL and DATA_DIR, or restore the log from a backup \(matchlog restore\)$/.source,
      ),
    );
  });

  t.test('read models that cannot open: the log, already open, is closed', async (t) => {
    const dir = emptyDir(t);
    writeFileSync(join(dir, 'readmodel.sqlite'), 'not a database either '.repeat(300));
    const { status, lines } = startFailing(dir);
    t.equal(status, 1);
    t.same(lines.length, 1, lines.join('\n'));
    t.match(
      lines[0],
      /^cannot start: the read models sqlite:.*\/readmodel\.sqlite cannot be opened \(SQLITE_NOTADB\): file is not a database; check READ_MODEL_URL; /,
    );
    t.ok(existsSync(join(dir, 'events.sqlite')), 'the log was opened');
    t.notOk(existsSync(join(dir, 'events.sqlite-wal')), 'and closed (SQLite removes the WAL with the last connection)');
  });

  t.test('a write-token key file that is not a key', async (t) => {
    const dir = emptyDir(t);
    writeFileSync(join(dir, 'write-token.key'), 'hunter2\n');
    const { status, lines } = startFailing(dir);
    t.equal(status, 1);
    t.same(lines.length, 1, lines.join('\n'));
    t.match(lines[0], /^cannot start: the write-token key file .*\/write-token\.key is not base64 of at least 32 bytes; put back the key from your backup/);
    t.notOk(existsSync(join(dir, 'events.sqlite')), 'no store was opened');
  });

  t.test('a metrics port in use', async (t) => {
    const { port, dataDir } = await portInUse(t);
    const { status, lines } = startFailing(dataDir, { METRICS_PORT: String(port) });
    t.equal(status, 1);
    t.same(lines.length, 1, lines.join('\n'));
    t.match(
      lines[0],
      new RegExp(`^cannot listen for metrics on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE: .*\\); set METRICS_PORT or METRICS_HOST to a free address$`),
    );
    t.same(
      ['events.sqlite-wal', 'readmodel.sqlite-wal'].filter((file) => existsSync(join(dataDir, file))),
      [],
      'both stores closed',
    );
  });
});
