import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import t from 'tap';
import { createRenderedCache } from '../../src/http/renderedPages.js';
import { fixture } from '../helpers/fixtures.js';
import { json, logLines, startTestApp, type TestApp } from '../helpers/testApp.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire (still compressed when content-encoding says so). */
  raw: Buffer;
}

/** A GET over a real socket, the body left as sent. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const text = (answer: Answer) =>
  (answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.raw)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.raw)
      : answer.raw
  ).toString('utf8');

/** The real app listening on a loopback port, with a cache of `budget` bytes (the default's 48 MiB otherwise). */
async function listening(t: Parameters<typeof startTestApp>[0], env: Record<string, string> = {}, budget = 48 * 1024 * 1024) {
  const cache = createRenderedCache(budget);
  const started = await startTestApp(t, env, { renderedCache: cache });
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...started, cache, port: (started.app.server.address() as AddressInfo).port };
}

interface AccessLine {
  msg: string;
  req?: { method: string; url: string };
  bodyCache?: string;
  compressedNow?: string;
}

/** The access lines of GETs of `url`, in order. */
const accessLines = (app: TestApp, url: string) =>
  logLines<AccessLine>(app.logs).filter((line) => line.msg === 'request completed' && line.req?.method === 'GET' && line.req.url === url);

/** A match of about `bytes` bytes, named, with `v` in it. */
function match(bytes: number, v = 0) {
  const base = fixture({ seed: 7, actions: 40 });
  const rallies = Array.from({ length: Math.ceil(bytes / 42) }, (_, i) => ({ rally: i, note: `point ${(i * 7919) % 10007} to ${i % 3 ? 'home' : 'away'}` }));
  return { ...base, homeTeam: { name: 'Lakeside Herons', setsWon: v }, awayTeam: { name: 'Old Harbour Owls', setsWon: 0 }, rallies, v };
}

t.test('API JSON is kept with its compressed copies: a second brotli GET of a 3 MB match compresses nothing', async (t) => {
  const started = await listening(t);
  const { port } = started;
  const put = await started.app.inject({ method: 'PUT', url: '/api/matches/big', headers: json, payload: match(3_000_000) });
  t.equal(put.statusCode, 200);
  const first = await get(port, '/api/matches/big', { 'accept-encoding': 'br' });
  const second = await get(port, '/api/matches/big', { 'accept-encoding': 'br' });
  const gz = await get(port, '/api/matches/big', { 'accept-encoding': 'gzip' });
  const plain = await get(port, '/api/matches/big');
  t.equal(first.headers['content-encoding'], 'br');
  t.ok(first.raw.length < plain.raw.length / 3, 'compressed');
  t.ok(second.raw.equals(first.raw), 'the same brotli bytes');
  t.equal(text(second), plain.raw.toString(), 'which decode to the identity body');
  t.equal(text(gz), plain.raw.toString());
  t.ok(plain.raw.length > 3_000_000);
  t.equal(JSON.parse(plain.raw.toString()).payload.homeTeam.name, 'Lakeside Herons');
  const lines = accessLines(started, '/api/matches/big');
  t.same(
    lines.map((line) => [line.bodyCache, line.compressedNow ?? null]),
    [
      ['stored', 'br'],
      ['hit', null],
      ['hit', 'gzip'],
      ['hit', null],
    ],
    'serialised once, each copy made once (and never again by @fastify/compress)',
  );
  const conditional = await get(port, '/api/matches/big', { 'if-none-match': String(first.headers.etag) });
  t.equal(conditional.status, 304);
});

t.test('?revision answers are kept per version like the current one; malformed revisions are a 400 on the API and the page', async (t) => {
  const started = await listening(t);
  const { port, app } = started;
  for (let v = 0; v < 3; v += 1) await app.inject({ method: 'PUT', url: '/api/matches/old', headers: json, payload: match(200_000, v) });
  for (const url of ['/api/matches/old?revision=1', '/match/old?revision=1']) {
    const first = await get(port, url, { 'accept-encoding': 'br' });
    const again = await get(port, url, { 'accept-encoding': 'br' });
    t.equal(first.status, 200, url);
    t.ok(again.raw.equals(first.raw), `${url}: the same bytes`);
    t.same(
      accessLines(started, url).map((line) => [line.bodyCache, line.compressedNow ?? null]),
      [
        ['stored', 'br'],
        ['hit', null],
      ],
      `${url}: made once`,
    );
  }
  t.equal(JSON.parse(text(await get(port, '/api/matches/old?revision=1'))).payload.v, 1);
  t.equal((await get(port, '/match/old?revision=1')).headers['cache-control'], 'public, max-age=86400, immutable', 'an old version never changes');
  t.match(text(await get(port, '/match/old?revision=1')), /as it was at revision 1/);
  // A new upload moves the head: the API answer's header names it, the kept answers of the old version do not change.
  await app.inject({ method: 'PUT', url: '/api/matches/old', headers: json, payload: match(200_000, 3) });
  t.equal((await get(port, '/api/matches/old?revision=1')).headers['matchlog-latest-revision'], '3');
  t.equal(accessLines(started, '/api/matches/old?revision=1').at(-1)?.bodyCache, 'hit');
  t.equal(accessLines(started, '/match/old?revision=1').at(-1)?.bodyCache, 'hit');

  for (const bad of ['99999999999999999999', 'abc', '-1', '1.5', '9007199254740992']) {
    const api = await get(port, `/api/matches/old?revision=${bad}`);
    t.equal(api.status, 400, `API ?revision=${bad}`);
    t.match(JSON.parse(api.raw.toString()), { statusCode: 400, error: 'Bad Request', message: /querystring\.revision must be/ });
    const page = await get(port, `/match/old?revision=${bad}`, { accept: 'text/html' });
    t.equal(page.status, 400, `page ?revision=${bad}`);
    t.match(page.headers['content-type'], /text\/html/);
    t.match(text(page), /revision must be a whole number from 0 to 9007199254740991/);
  }
  t.equal((await get(port, '/match/old?revision=9007199254740991')).status, 404, 'a well-formed revision the match has not reached is still a 404');
});

t.test('a render that fails is kept as its error page, logged once; the history page never reads the payload', async (t) => {
  // Versions stored as given (no deltas), so that each edit below breaks its own payload's JSON only.
  const started = await listening(t, { DELTA_KEYFRAME_INTERVAL: '0' });
  const { port, app, dataDir } = started;
  for (let v = 0; v < 2; v += 1) await app.inject({ method: 'PUT', url: '/api/matches/broken', headers: json, payload: match(3_000_000, v) });
  // Break the stored payloads in the log itself (the projections have their team names already):
  // whatever parses them now throws.
  const db = new Database(join(dataDir, 'events.sqlite'));
  const changed = db.prepare(`UPDATE events SET data = replace(data, '"rallies":', '"rallies"') WHERE stream_id = 'match-broken'`).run().changes;
  db.close();
  t.equal(changed, 2);

  const history = await get(port, '/match/broken/history');
  t.equal(history.status, 200, 'the history page reads no payload: it is whole with every payload unparseable');
  t.match(text(history), /History of Lakeside Herons vs Old Harbour Owls/);

  for (const url of ['/match/broken', '/match/broken?revision=0']) {
    const first = await get(port, url, { 'accept-encoding': 'br' });
    const again = await get(port, url, { 'accept-encoding': 'br' });
    t.equal(first.status, 500, url);
    t.equal(again.status, 500);
    t.equal(first.headers['cache-control'], 'no-store');
    t.match(text(again), /internal error; it has been logged/);
    t.same(
      accessLines(started, url).map((line) => line.bodyCache),
      ['stored', 'hit'],
      `${url}: rendered (and failed) once`,
    );
  }
  const failures = logLines<{ msg: string; err?: { type: string } }>(started.logs).filter((line) => line.msg === 'request failed');
  t.equal(failures.length, 2, 'one log line per failed render, not per request');
  t.equal(failures[0]?.err?.type, 'SyntaxError');
});

t.test('kept bodies never exceed the byte budget, copies included; a body above an eighth of it is served, not kept', async (t) => {
  const budget = 2 * 1024 * 1024;
  const started = await listening(t, {}, budget);
  const { port, app, cache } = started;
  let most = 0;
  for (let i = 0; i < 16; i += 1) {
    await app.inject({ method: 'PUT', url: `/api/matches/m${i}`, headers: json, payload: match(120_000, i) });
    for (const url of [`/api/matches/m${i}`, `/match/m${i}`, `/match/m${i}/embed`, `/match/m${i}/qr.svg`]) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        t.equal((await get(port, url, { 'accept-encoding': encoding })).status, 200);
        most = Math.max(most, cache.bytes());
      }
    }
  }
  t.ok(most <= budget, `at most ${most} bytes kept of ${budget}`);
  t.ok(most > budget / 2, 'and the budget is used');
  await get(port, '/api/matches/m0', { 'accept-encoding': 'br' });
  t.equal(accessLines(started, '/api/matches/m0').at(-1)?.bodyCache, 'stored', 'the least recently used made room and is made again');

  await app.inject({ method: 'PUT', url: '/api/matches/large', headers: json, payload: match(400_000) });
  const answers = [await get(port, '/api/matches/large'), await get(port, '/api/matches/large')];
  t.same(
    answers.map((answer) => answer.status),
    [200, 200],
  );
  t.same(
    accessLines(started, '/api/matches/large').map((line) => line.bodyCache),
    ['not kept', 'not kept'],
    'above budget/8: served, not kept',
  );
  t.ok(cache.bytes() <= budget);
});
