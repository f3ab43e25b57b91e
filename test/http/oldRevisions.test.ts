import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { ReadStreamOptions } from '../../src/eventstore/eventStore.js';
import type { OldVersionLimits } from '../../src/http/oldVersions.js';
import { renderedKeys } from '../../src/http/renderedKeys.js';
import { createRenderedCache } from '../../src/http/renderedPages.js';
import { json, startTestApp } from '../helpers/testApp.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET over a real socket from `localAddress` (another loopback address is another client). */
function get(port: number, path: string, { headers = {}, localAddress = '127.0.0.1' }: { headers?: Record<string, string>; localAddress?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const TOKEN = 'old-revisions-token-0123456789';

/** A version of a large match (~600 KB, stored as deltas): its score and one more rally each time. */
const version = (v: number) =>
  JSON.stringify({
    sport: 'volleyball',
    homeTeam: { name: 'Lakeside Herons', setsWon: v },
    awayTeam: { name: 'Old Harbour Owls', setsWon: 0 },
    rallies: Array.from({ length: 12_000 + v }, (_, i) => ({ rally: i, note: `point ${(i * 7919) % 10007} to ${i % 3 ? 'home' : 'away'}` })),
  });

/** The real app listening on loopback, `versions` versions of a protected match `old` stored, the log's reads counted and delayed by `readDelayMs`. */
async function listening(t: Parameters<typeof startTestApp>[0], { versions = 5, limits }: { versions?: number; limits?: OldVersionLimits } = {}) {
  const cache = createRenderedCache(48 * 1024 * 1024, limits ? { oldVersionLimits: limits } : {});
  const started = await startTestApp(t, {}, { renderedCache: cache });
  const { app, engine } = started;
  for (let v = 0; v < versions; v += 1) {
    const put = await app.inject({
      method: v === 0 ? 'POST' : 'PUT',
      url: v === 0 ? '/api/matches' : '/api/matches/old',
      headers: { ...json, 'x-write-token': TOKEN },
      payload: v === 0 ? `{"id":"old",${version(v).slice(1)}` : version(v),
    });
    if (put.statusCode >= 300) throw new Error(`upload ${v}: ${put.statusCode} ${put.body}`);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const store = engine.eventStore;
  const readStream = store.readStream.bind(store);
  const log = { reads: 0, delayMs: 0 };
  store.readStream = async (streamId: string, options?: ReadStreamOptions) => {
    log.reads += 1;
    if (log.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, log.delayMs));
    return readStream(streamId, options);
  };
  return { ...started, cache, log, port: (app.server.address() as AddressInfo).port };
}

t.test('a second read of an old revision reads nothing from the log: its answer and page are kept per version', async (t) => {
  const { port, log, cache } = await listening(t);
  for (const path of ['/api/matches/old?revision=1', '/match/old?revision=1']) {
    const first = await get(port, path);
    t.equal(first.status, 200, path);
    const readsBefore = log.reads;
    const again = await get(port, path, { headers: { 'if-none-match': 'x' } });
    t.equal(again.status, 200);
    t.equal(log.reads, readsBefore, `${path}: no read of the log the second time`);
    t.ok(again.body.equals(first.body), `${path}: the same bytes`);
  }
  t.ok(cache.get(renderedKeys.oldVersion('api', 'old', 1, {})), 'the API answer is kept under its version');
  t.ok(cache.get(renderedKeys.oldVersion('page', 'old', 1, {})), 'so is the page');
});

t.test('old revisions are immutable for caches and do not change when the head moves; the current version asked by revision is revalidated', async (t) => {
  const { port, app } = await listening(t);
  const api = await get(port, '/api/matches/old?revision=2');
  const page = await get(port, '/match/old?revision=2');
  for (const answer of [api, page]) t.equal(answer.headers['cache-control'], 'public, max-age=86400, immutable');
  t.equal(api.headers['matchlog-latest-revision'], '4');
  t.equal(api.headers.link, '</api/matches/old>; rel="latest-version"');
  t.notOk('latestRevision' in JSON.parse(api.body.toString()), 'the body names no head');
  t.equal(JSON.parse(api.body.toString()).revision, 2);

  const current = await get(port, '/api/matches/old?revision=4');
  t.equal(current.headers['cache-control'], 'no-cache', 'the current version may be superseded: revalidated');
  await app.inject({ method: 'PUT', url: '/api/matches/old', headers: { ...json, 'x-write-token': TOKEN }, payload: version(5) });

  const apiAfter = await get(port, '/api/matches/old?revision=2');
  const pageAfter = await get(port, '/match/old?revision=2');
  t.ok(apiAfter.body.equals(api.body), 'the API answer is byte for byte the same after an upload');
  t.ok(pageAfter.body.equals(page.body), 'so is the page');
  t.equal(apiAfter.headers.etag, api.headers.etag);
  t.equal(apiAfter.headers['matchlog-latest-revision'], '5', 'the header names the new current version');
  const superseded = await get(port, '/api/matches/old?revision=4', { headers: { 'if-none-match': String(current.headers.etag) } });
  t.equal(superseded.status, 304, 'the version that was current keeps its ETag');
  t.equal(superseded.headers['cache-control'], 'public, max-age=86400, immutable', 'and is immutable now that a later one exists');
});

t.test("an erased match's old revisions answer 410 and its kept bodies are let go", async (t) => {
  const { port, cache } = await listening(t);
  for (const path of ['/api/matches/old?revision=1', '/match/old?revision=1']) t.equal((await get(port, path)).status, 200);
  t.ok(cache.get(renderedKeys.oldVersion('api', 'old', 1, {})));
  const erase = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/matches/old', method: 'DELETE', headers: { 'x-write-token': TOKEN } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  t.equal(erase, 200);
  t.notOk(cache.get(renderedKeys.oldVersion('api', 'old', 1, {})), 'the API answer is gone');
  t.notOk(cache.get(renderedKeys.oldVersion('page', 'old', 1, {})), 'the page is gone');
  t.equal(cache.oldVersions.resolvedVersion('old', 1), undefined, 'and what its revisions resolved to');
  for (const path of ['/api/matches/old?revision=1', '/match/old?revision=1', '/api/matches/old?revision=3']) {
    const answer = await get(port, path);
    t.equal(answer.status, 410, path);
    t.match(answer.body.toString(), /was erased on/);
  }
});

t.test('one address asking for many old revisions at once is refused with Retry-After while another address is served', async (t) => {
  const { port, log } = await listening(t, { versions: 8, limits: { perAddress: { running: 1, waiting: 1 }, total: { running: 4, waiting: 8 } } });
  log.delayMs = 100;
  const many = Array.from({ length: 5 }, (_, i) => get(port, `/api/matches/old?revision=${i + 1}`));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const other = await get(port, '/api/matches/old?revision=6', { localAddress: '127.0.0.2' });
  const answers = await Promise.all(many);
  t.equal(other.status, 200, 'another address is served meanwhile');
  t.same(answers.map((a) => a.status).sort(), [200, 200, 429, 429, 429], 'one read runs and one waits behind it; the rest are refused');
  for (const refused of answers.filter((a) => a.status === 429)) {
    t.equal(refused.headers['retry-after'], '1');
    t.match(JSON.parse(refused.body.toString()), { statusCode: 429, message: /too many old revisions asked at once from your address/ });
  }
});

t.test('beyond the reads all addresses may have running and waiting, 503 with Retry-After', async (t) => {
  const { port, log } = await listening(t, { versions: 6, limits: { perAddress: { running: 1, waiting: 4 }, total: { running: 1, waiting: 1 } } });
  log.delayMs = 100;
  const answers = await Promise.all([1, 2, 3].map((r) => get(port, `/match/old?revision=${r}`, { localAddress: `127.0.0.${r + 1}` })));
  t.same(answers.map((a) => a.status).sort(), [200, 200, 503]);
  const refused = answers.find((a) => a.status === 503)!;
  t.equal(refused.headers['retry-after'], '1');
  t.match(refused.body.toString(), /too many old revisions are being read at once/, 'said on the page');
});
