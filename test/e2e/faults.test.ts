import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Defect 5 of issue 10: faults say what they are, and the service recovers when they clear.

/** A small tmpfs, when this machine lets us mount one; else the reason it does not. */
function smallDisk(t: { teardown(fn: () => void): void }, megabytes: number): string | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return {
      skip: `cannot mount a small tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}); the full-disk test needs root or a loop mount`,
    };
  }
  t.teardown(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

t.test('a full disk: writes get 507 with a message, /readyz says why, and all recovers when space returns', async (t) => {
  const disk = smallDisk(t, 8);
  if (typeof disk !== 'string') return t.plan(0, disk.skip);
  const { app } = await startTestApp(t, { DATA_DIR: disk, READ_YOUR_WRITES_TIMEOUT_MS: '200' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const filler = join(disk, 'filler');
  writeFileSync(filler, Buffer.alloc(7 * 1024 * 1024 - 600 * 1024));
  const body = (i: number) => JSON.stringify({ id: `full-${i}`, pad: 'p'.repeat(40_000) });
  const acknowledged: number[] = [];
  let refusal: Response | null = null;
  for (let i = 0; i < 200 && refusal === null; i += 1) {
    const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: body(i) });
    if (res.status === 201) acknowledged.push(i);
    else refusal = res;
  }
  t.ok(acknowledged.length > 0, `${acknowledged.length} writes fitted`);
  t.ok(refusal, 'the disk filled up');
  t.equal(refusal?.status, 507, '507 Insufficient Storage, not a generic 500');
  t.match(await refusal?.json(), { statusCode: 507, error: 'Insufficient Storage', message: /storage is full, so nothing was stored; retry later/ });
  t.ok(refusal?.headers.get('retry-after'), 'with Retry-After');

  const ready = await fetch(`${base}/readyz`);
  const readiness = (await ready.json()) as { status: string; reason?: string };
  if (ready.status === 503) t.match(readiness.reason, /full|commit failed/, `/readyz: ${readiness.reason}`);
  else t.comment('the read model still had room: /readyz stayed ready (the log filled first)');

  unlinkSync(filler);
  await until('/readyz ready again', async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : null));
  for (const i of acknowledged) t.equal((await fetch(`${base}/api/matches/full-${i}`)).status, 200, `acknowledged full-${i} readable`);
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: body(999) })).status, 201, 'writes work again');
});

t.test('a full read-model disk: /readyz names the failing commit; the acknowledged writes show once space returns', async (t) => {
  const disk = smallDisk(t, 4);
  if (typeof disk !== 'string') return t.plan(0, disk.skip);
  const { app } = await startTestApp(t, { READ_MODEL_URL: `sqlite:${join(disk, 'readmodel.sqlite')}`, READ_YOUR_WRITES_TIMEOUT_MS: '200' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const filler = join(disk, 'filler');
  writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024 - 300 * 1024));
  const written: string[] = [];
  let readiness: { status: string; reason?: string } | null = null;
  for (let i = 0; i < 100 && readiness === null; i += 1) {
    const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: `rm-${i}`, pad: 'p'.repeat(40_000) }) });
    t.equal(res.status, 201, `rm-${i} stored in the log`);
    written.push(`rm-${i}`);
    const ready = await fetch(`${base}/readyz`);
    if (ready.status === 503) readiness = (await ready.json()) as { status: string; reason?: string };
  }
  t.ok(readiness, 'the read model filled up');
  t.equal(readiness?.status, 'projection failing');
  t.match(readiness?.reason, /commit failed: .*(full|SQLITE_FULL)/, `/readyz: ${readiness?.reason}`);
  unlinkSync(filler);
  await until('/readyz ready again', async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : null));
  for (const id of written) t.equal((await fetch(`${base}/api/matches/${id}`)).status, 200, `${id} shows after recovery`);
});

t.test('an API with no projections running warns at start, and /readyz says no projection is making progress', async (t) => {
  const { app, logs } = await startTestApp(t, { RUN_PROJECTIONS: 'no', PROJECTION_STALL_MS: '1000', READ_YOUR_WRITES_TIMEOUT_MS: '100' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.ok(
    logs.some((line) => line.includes('"level":40') && line.includes('runs no projections')),
    'warned at start',
  );
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"unseen"}' })).status, 201, 'the write is stored');
  const stalled = await until('a not-ready /readyz', async () => {
    const res = await fetch(`${base}/readyz`);
    return res.status === 503 ? ((await res.json()) as { status: string; reason: string }) : null;
  });
  t.equal(stalled.status, 'not progressing');
  t.match(stalled.reason, /no projection has made progress.*is a projection worker \(matchlog projections\) running\?/);
});

t.test('an API on a MongoDB read model with no worker running: warned at start, and /readyz says so', async (t) => {
  const readModelUrl = testMongoUrl(t, 'matchlog_workerless');
  if (readModelUrl === null) return t.plan(0, NO_MONGODB);
  // RUN_PROJECTIONS=auto runs none on MongoDB: workers are separate processes, and none is started here.
  const { app, logs } = await startTestApp(t, { READ_MODEL_URL: readModelUrl, PROJECTION_STALL_MS: '1000', READ_YOUR_WRITES_TIMEOUT_MS: '100' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.ok(
    logs.some((line) => line.includes('"level":40') && line.includes('runs no projections')),
    'warned at start',
  );
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"unseen"}' })).status, 201, 'the write is stored');
  const stalled = await until('a not-ready /readyz', async () => {
    const res = await fetch(`${base}/readyz`);
    return res.status === 503 ? ((await res.json()) as { status: string; reason: string }) : null;
  });
  t.equal(stalled.status, 'not progressing');
  t.match(stalled.reason, /this API runs none itself.*matchlog projections/);
});
