import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createRenderedCache } from '../../src/http/renderedPages.js';
import { readErasureLedger, reasonDigest } from '../../src/platform/erasureLedger.js';
import { runMatchlog } from '../helpers/cli.js';
import { openLiveStream } from '../helpers/liveStreams.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, startTestApp, tempDataDir } from '../helpers/testApp.js';
import { until } from '../helpers/until.js';

// Issue 58: an erased match is gone from every answer, every open live stream and the process's memory.

const token = 'erase-me-token-0123456789abcdef';
const payload = (marker: string, round: number) =>
  JSON.stringify({ sport: 'volleyball', status: 'live', note: marker, round, teams: { home: { name: 'Owls' }, away: { name: 'Comets' } } });

t.test("an erased match's old revisions answer 410 on every route, and its open live streams are told it is gone", async (t) => {
  const { app, config } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const marker = 'MARKER-old-revisions-e1';
  t.equal(
    (
      await fetch(`${base}/api/matches`, {
        method: 'POST',
        headers: { ...json, 'x-write-token': token },
        body: `{"id":"gone-1",${payload(marker, 1).slice(1)}`,
      })
    ).status,
    201,
  );
  t.equal((await fetch(`${base}/api/matches/gone-1`, { method: 'PUT', headers: { ...json, 'x-write-token': token }, body: payload(marker, 2) })).status, 200);
  t.equal((await fetch(`${base}/match/gone-1?revision=0`)).status, 200, 'an old revision before');
  const stream = await fetch(`${base}/match/gone-1/live`, { headers: { accept: 'text/event-stream' } });
  t.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      seen += decoder.decode(value);
    }
  })();
  const reason = 'a parent asked, Jane Doe';
  const erased = await fetch(`${base}/api/matches/gone-1`, {
    method: 'DELETE',
    headers: { ...json, 'x-write-token': token },
    body: JSON.stringify({ reason }),
  });
  t.equal(erased.status, 200);
  t.match(
    readErasureLedger(config.erasureLedger),
    [{ matchId: 'gone-1', by: 'api', reasonSha256: reasonDigest(reason) }],
    'the erasure is in the ledger a restore re-applies',
  );
  t.notMatch(readFileSync(config.erasureLedger, 'utf8'), /Jane/, 'with no reason text');
  t.equal(await ended, true, 'the open stream ends');
  t.match(seen, /event: gone\n/, 'after telling the page the match is gone');
  for (const path of ['/match/gone-1?revision=0', '/match/gone-1?revision=1', '/api/matches/gone-1?revision=0', '/match/gone-1', '/api/matches/gone-1']) {
    const res = await fetch(`${base}${path}`);
    t.equal(res.status, 410, `${path}: 410`);
    t.notMatch(await res.text(), marker, `${path}: nothing of the payload`);
  }
  const refused = await openLiveStream(base, '/match/gone-1/live');
  t.not(refused.status, 200, 'a new stream of it is refused');
});

t.test("after an erasure no string of the match's payload is left in the server's heap (a heap snapshot of a real process)", async (t) => {
  const dataDir = tempDataDir(t);
  const snapshots = tempDataDir(t, 'matchlog-heap-');
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    WRITE_RATE_LIMIT: 'off',
    NODE_OPTIONS: `--heapsnapshot-signal=SIGWINCH --diagnostic-dir=${snapshots}`,
  });
  t.teardown(() => void server.child.kill('SIGKILL'));
  await waitUntilReady(server.url);
  const marker = `MARKER-heap-${Date.now()}`;
  const put = (round: number) =>
    fetch(`${server.url}/api/matches/heap-1`, { method: 'PUT', headers: { ...json, 'x-write-token': token }, body: payload(marker, round) });
  t.equal(
    (
      await fetch(`${server.url}/api/matches`, {
        method: 'POST',
        headers: { ...json, 'x-write-token': token },
        body: `{"id":"heap-1",${payload(marker, 0).slice(1)}`,
      })
    ).status,
    201,
  );
  // The same body twice (kept as a repeat), every read that keeps a body: pages, API JSON, old revisions, embed, history.
  for (const round of [1, 1, 2]) t.equal((await put(round)).status, 200);
  for (const path of [
    '/match/heap-1',
    '/api/matches/heap-1',
    '/match/heap-1?revision=0',
    '/api/matches/heap-1?revision=1',
    '/match/heap-1/embed',
    '/match/heap-1/history',
  ]) {
    t.equal((await fetch(`${server.url}${path}`)).status, 200, path);
  }
  t.equal((await fetch(`${server.url}/api/matches/heap-1`, { method: 'DELETE', headers: { 'x-write-token': token } })).status, 200);
  // SIGWINCH: a signal the server does not otherwise handle (SIGUSR2 shuts it down, as close-with-grace does).
  server.child.kill('SIGWINCH');
  let file: string | undefined;
  for (let i = 0; i < 600 && file === undefined; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const done = readdirSync(snapshots).find((name) => name.endsWith('.heapsnapshot'));
    // Written whole once the server answers again (the snapshot is taken on the main thread).
    if (
      done !== undefined &&
      (await fetch(`${server.url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      file = done;
  }
  t.ok(file, 'a heap snapshot was written');
  const heap = readFileSync(join(snapshots, file!), 'utf8');
  t.ok(heap.length > 1_000_000, 'of the whole heap');
  t.notOk(heap.includes(marker), "the payload's marker is in no string the process still holds");
});

t.test("`matchlog erase` run beside the server: the server's projections commit the erasure and it lets go of what it kept of the match", async (t) => {
  const renderedCache = createRenderedCache(16 * 1024 * 1024);
  const { app, dataDir } = await startTestApp(t, {}, { renderedCache });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const marker = 'MARKER-cli-erase-e3';
  t.equal((await fetch(`${base}/api/matches/cli-1`, { method: 'PUT', headers: json, body: payload(marker, 1) })).status, 200);
  for (const path of ['/match/cli-1', '/api/matches/cli-1', '/match/cli-1/embed']) t.equal((await fetch(`${base}${path}`)).status, 200, path);
  const kept = renderedCache.entries();
  t.ok(kept > 0, `${kept} bodies of the match kept`);
  const erased = await runMatchlog(['erase', 'cli-1', '--reason', 'uploaded by mistake'], { DATA_DIR: dataDir });
  t.equal(erased.code, 0, erased.stderr);
  await until(async () => (await fetch(`${base}/api/matches/cli-1`)).status === 410);
  t.equal((await fetch(`${base}/api/matches/cli-1`)).status, 410, 'the server sees the erasure');
  // The server reads the public view's checkpoint every 4 s (it runs the projection) for moves its own commits do not explain.
  await until(() => renderedCache.entries() === 0);
  t.equal(renderedCache.entries(), 0, 'and keeps no body of the match any more');
});
