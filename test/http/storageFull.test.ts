import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DomainError } from '../../src/domain/errors.js';
import { matchStreamId } from '../../src/domain/matchId.js';
import { storageFailureOf } from '../../src/platform/storageFailure.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, logLines, startTestApp, tempDataDir, type TestApp } from '../helpers/testApp.js';

async function listening(t: Parameters<typeof startTestApp>[0], env: Record<string, string>) {
  const started = await startTestApp(t, { READ_YOUR_WRITES_TIMEOUT_MS: '300', ...env });
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`;
  return { ...started, base };
}

const put = (base: string, id: string, body: string) => fetch(`${base}/api/matches/${id}`, { method: 'PUT', headers: json, body });

/** A refused write: 507, the one error body, Retry-After, and the operator told in the log. */
async function refused(t: Test, res: Response, started: TestApp, message: RegExp) {
  t.equal(res.status, 507, 'Insufficient Storage');
  t.equal(res.headers.get('retry-after'), '60');
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.match(await res.json(), { statusCode: 507, error: 'Insufficient Storage', message });
  t.ok(
    logLines<{ msg: string }>(started.logs).some((line) => line.msg.startsWith('storage refused a write')),
    'the operator is told in the log',
  );
}

t.test('the stores raise storage_full by error code: full, or removed, read-only or failing', async (t) => {
  const coded = (code: string) => Object.assign(new Error('x'), { code });
  t.equal(storageFailureOf(coded('SQLITE_FULL')), 'full');
  t.equal(storageFailureOf(coded('ENOSPC')), 'full');
  t.equal(storageFailureOf(coded('EDQUOT')), 'full');
  for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_CANTOPEN', 'EROFS']) {
    t.equal(storageFailureOf(coded(code)), 'unwritable', code);
  }
  t.equal(storageFailureOf(new DomainError('validation', 'x', undefined, { cause: coded('SQLITE_FULL') })), 'full', 'as a cause');
  for (const code of ['SQLITE_BUSY', 'SQLITE_CONSTRAINT', 'ENOENT', 'EACCES']) t.equal(storageFailureOf(coded(code)), null, code);
});

t.test('a removed data directory: writes are 507 and change nothing, reads go on', async (t) => {
  const dataDir = tempDataDir(t);
  const started = await listening(t, { DATA_DIR: dataDir });
  const { base, engine } = started;
  t.equal((await put(base, 'kept', JSON.stringify({ homeTeam: { name: 'Herons' }, v: 1 }))).status, 200);
  const head = await engine.eventStore.headPosition();

  // SQLite keeps writing into the removed files' inodes: acknowledged, and gone at the next start.
  rmSync(dataDir, { recursive: true, force: true });
  await refused(
    t,
    await put(base, 'kept', JSON.stringify({ homeTeam: { name: 'Herons' }, v: 2 })),
    started,
    /cannot write to its storage \(its data directory is missing or read-only\), so nothing was stored/,
  );
  await refused(
    t,
    await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'new-one' }) }),
    started,
    /nothing was stored/,
  );
  t.equal(await engine.eventStore.headPosition(), head, 'nothing was appended');
  const kept = await fetch(`${base}/api/matches/kept`);
  t.equal(kept.status, 200, 'reads go on');
  t.equal(((await kept.json()) as { payload: { v: number } }).payload.v, 1, 'the stored version is unchanged');
  t.equal((await fetch(`${base}/api/matches/new-one`)).status, 404);
});

/** A tmpfs of `megabytes` mounted for this file's tests (root only); null where mounting is not allowed. */
function smallDisk(megabytes: number): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  t.teardown(() => {
    // Lazily: the app's files may still be open when this runs.
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const disk = smallDisk(8);
t.test(
  'a full disk: writes are 507 and change nothing; once space is freed they are taken again',
  { skip: disk === null ? 'needs root to mount a small tmpfs' : false },
  async (t) => {
    if (disk === null) return;
    const started = await listening(t, { DATA_DIR: join(disk, 'data') });
    const { base, engine } = started;
    t.equal((await put(base, 'seed', fixtureText({ seed: 1 }))).status, 200);
    // Leave about 400 KB free: a few uploads of a 55–90 KB match fill it.
    const { bavail, bsize } = statfsSync(disk);
    const filler = join(disk, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 400 * 1024)));

    let full: Response | null = null;
    let id = '';
    for (let i = 0; i < 60 && full === null; i += 1) {
      id = `fill-${i}`;
      const head = await engine.eventStore.headPosition();
      const res = await put(base, id, fixtureText({ seed: 100 + i }));
      if (res.status === 507) {
        full = res;
        t.equal(await engine.eventStore.headPosition(), head, 'the refused upload appended nothing');
      } else t.equal(res.status, 200, `${id}: stored while there was room`);
    }
    if (full === null) return t.fail('the disk never filled');
    await refused(t, full, started, /storage is full, so nothing was stored; retry later/);
    t.same(await engine.eventStore.readStream(matchStreamId(id)), [], 'the refused match is not in the log');
    t.equal((await fetch(`${base}/api/matches/seed`)).status, 200, 'reads go on');

    rmSync(filler);
    const again = await put(base, id, fixtureText({ seed: 7 }));
    t.equal(again.status, 200, `taken again once space is freed: ${await again.text()}`);
    t.equal((await fetch(`${base}/api/matches/${id}`)).status, 200);
  },
);
