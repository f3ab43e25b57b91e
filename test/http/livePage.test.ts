import { gunzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

/** Reads SSE events from a stream until `until` says stop; returns them parsed. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (events: { id: string; data: string }[]) => boolean) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { id: string; data: string }[] = [];
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id !== undefined && data !== undefined) events.push({ id, data });
    }
  }
  reader.releaseLock();
  return events;
}

/** A small volleyball match whose home side has won `score` sets: each score a new version. */
const liveMatch = (id: string, score: number) =>
  JSON.stringify({ id, sport: 'volleyball', homeTeam: { name: 'A', setsWon: score }, awayTeam: { name: 'B', setsWon: 0 } });

t.test('page, embed, QR, script: conditional GET, pre-compressed bytes, per-route CSP, sharing tags', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const payload = fixtureText({ sport: 'volleyball', seed: 3, id: 'lp-1' });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: payload })).status, 201);

  const page = await fetch(`${base}/match/lp-1`, { headers: { 'accept-encoding': 'identity' } });
  const text = await page.text();
  const etag = page.headers.get('etag');
  t.match(etag, /^"[\w-]{22}"$/);
  t.match(page.headers.get('content-security-policy'), /script-src 'self'.*frame-ancestors 'none'/);
  t.notOk(/<script>/.test(text), 'no inline script');
  t.match(text, /<script src="\/assets\/live.js" defer><\/script>/);
  t.match(text, /<meta property="og:url" content="http:\/\/matchlog.test\/match\/lp-1">/);
  t.match(text, /<meta property="og:title" content="[^"]+ \d–\d [^"]+">/, 'title with teams and score');
  t.match(text, /<meta name="twitter:card" content="summary_large_image">/);
  t.match(text, /<meta property="og:image" content="http:\/\/matchlog\.test\/match\/[^/]+\/card\.png\?revision=0">/, 'a preview image of this revision');
  t.match(text, /<img src="\/match\/lp-1\/qr.svg"/);

  const again = await fetch(`${base}/match/lp-1`, { headers: { 'if-none-match': etag! } });
  t.equal(again.status, 304, 'If-None-Match → 304');
  const raw = await app.inject({ url: '/match/lp-1', headers: { 'accept-encoding': 'gzip' } });
  t.equal(raw.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(raw.rawPayload).toString('utf8'), text, 'the gzip copy is the same page');
  t.ok(raw.rawPayload.length * 5 < Buffer.byteLength(text), `compressed ${Buffer.byteLength(text)} → ${raw.rawPayload.length} bytes`);
  const br = await app.inject({ url: '/match/lp-1', headers: { 'accept-encoding': 'br, gzip' } });
  t.equal(br.headers['content-encoding'], 'br');

  const apiView = await app.inject({ url: '/api/matches/lp-1' });
  t.equal(
    (await app.inject({ url: '/api/matches/lp-1', headers: { 'if-none-match': String(apiView.headers.etag) } })).statusCode,
    304,
    'the JSON API answers 304 too',
  );
  const apiGz = await app.inject({ url: '/api/matches/lp-1', headers: { 'accept-encoding': 'gzip' } });
  t.equal(apiGz.headers['content-encoding'], 'gzip', 'the JSON API is compressed');

  const embed = await app.inject({ url: '/match/lp-1/embed' });
  t.equal(embed.statusCode, 200);
  t.match(embed.headers['content-security-policy'], /frame-ancestors \*/, 'only the embed may be framed');
  t.equal(embed.headers['x-frame-options'], undefined, 'and no X-Frame-Options forbids it');
  t.equal((await app.inject({ url: '/match/lp-1' })).headers['x-frame-options'], 'SAMEORIGIN', 'the page keeps it');
  t.equal((await app.inject({ url: '/match/lp-1/embed', headers: { 'if-none-match': String(embed.headers.etag) } })).statusCode, 304);
  const part = await app.inject({ url: '/match/lp-1?part=main' });
  t.match(part.body, /^<div id="match-main" data-revision="0" data-status="final">/);

  const qr = await app.inject({ url: '/match/lp-1/qr.svg' });
  t.equal(qr.headers['content-type'], 'image/svg+xml');
  t.match(qr.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  t.equal((await app.inject({ url: '/match/nope/qr.svg' })).statusCode, 404);

  const script = await app.inject({ url: '/assets/live.js' });
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /javascript/);
});

t.test('live: SSE sends the current revision, then each new one; Last-Event-ID resumes; one feed entry per match', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const body = (score: number) => liveMatch('lp-live', score);
  await (await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: body(0) })).text();

  // Streams are aborted at the end, as a closing tab does.
  const viewers = new AbortController();
  t.teardown(() => viewers.abort());
  const { signal } = viewers;
  const a = await fetch(`${base}/match/lp-live/live`, { signal });
  const b = await fetch(`${base}/match/lp-live/live`, { headers: { 'last-event-id': '0' }, signal });
  t.match(a.headers.get('content-type'), /^text\/event-stream/);
  const gotA = readEvents(a.body!, (events) => events.some((e) => e.id === '2'));
  const gotB = readEvents(b.body!, (events) => events.some((e) => e.id === '2'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await (await fetch(`${base}/api/matches/lp-live`, { method: 'PUT', headers: json, body: body(1) })).text();
  await (await fetch(`${base}/api/matches/lp-live`, { method: 'PUT', headers: json, body: body(2) })).text();
  const eventsA = await gotA;
  const eventsB = await gotB;
  t.equal(eventsA[0]?.id, '0', 'a new viewer gets the current revision first');
  t.equal(eventsA.at(-1)?.data, '{"revision":2}');
  t.notOk(
    eventsB.some((e) => e.id === '0'),
    'a viewer who has revision 0 is not sent it again',
  );

  const resumed = await fetch(`${base}/match/lp-live/live`, { headers: { 'last-event-id': '1' }, signal });
  const caughtUp = await readEvents(resumed.body!, (events) => events.length > 0);
  t.same(caughtUp, [{ id: '2', data: '{"revision":2}' }], 'a reconnect with an old Last-Event-ID gets the current revision at once');
  const missing = await fetch(`${base}/match/none/live`);
  t.equal(missing.status, 404);
  await missing.text();
});

t.test('live: a held stream keeps Node’s response, not Fastify’s reply, and an error on it ends nothing else', async (t) => {
  const { app } = await startTestApp(t);
  // The test's own hook sees the reply of each stream before its handler runs.
  const replies: FastifyReply[] = [];
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.endsWith('/live')) replies.push(reply);
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const body = (score: number) => liveMatch('lp-slim', score);
  await (await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: body(0) })).text();
  const viewers = new AbortController();
  t.teardown(() => viewers.abort());
  const stream = await fetch(`${base}/match/lp-slim/live`, { signal: viewers.signal });
  const got = readEvents(stream.body!, (events) => events.some((e) => e.id === '1'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const raw = replies[0]!.raw;
  t.notOk(
    raw.listeners('finish').some((listener) => listener.name === 'onResFinished'),
    "Fastify's listener, which holds the request, reply and logger, is gone",
  );
  t.ok(raw.listenerCount('error') > 0, 'an error on the stream has a listener');
  raw.emit('error', new Error('a write to a stream gone wrong'));
  await (await fetch(`${base}/api/matches/lp-slim`, { method: 'PUT', headers: json, body: body(1) })).text();
  t.same((await got).at(-1), { id: '1', data: '{"revision":1}' }, 'the stream still gets the next revision');
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'the server is up');
});
