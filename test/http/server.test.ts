import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { json, seedFields, startTestApp } from '../helpers/testApp.js';

/** The same API over a real loopback socket: framing, limits and headers as clients meet them. */
t.test('every endpoint and status over a listening server', async (t) => {
  const { app } = await startTestApp(t, { MAX_BODY_BYTES: String(200 * 1024) });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = 'server-token-0123456789';
  const payload = fixtureText({ sport: 'basketball', seed: 9, id: 'live-1' });

  const created = await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': token }, body: payload });
  t.equal(created.status, 201);
  t.same(seedFields(await created.json()), { id: 'live-1', url: 'http://matchlog.test/match/live-1' });
  t.match(created.headers.get('x-request-id'), /./);

  const view = await fetch(`${base}/api/matches/live-1`);
  t.equal(view.status, 200, 'read-your-writes: visible right after the 201');
  t.equal(view.headers.get('etag'), '"r0"');
  t.ok((await view.text()).endsWith(`"payload":${payload}}`));

  const put = await fetch(`${base}/api/matches/live-1`, { method: 'PUT', headers: { ...json, 'x-write-token': token }, body: payload });
  t.equal(put.status, 200);
  t.equal((await fetch(`${base}/api/matches/live-1`, { method: 'PUT', headers: json, body: payload })).status, 403);
  t.equal((await fetch(`${base}/api/matches/live-1`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: payload })).status, 415);
  const tooBig = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'big', filler: 'x'.repeat(300 * 1024) }) });
  t.equal(tooBig.status, 413);
  t.match(await tooBig.json(), { statusCode: 413, message: /MAX_BODY_BYTES/ });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":' })).status, 400);
  t.equal((await fetch(`${base}/api/matches/missing`)).status, 404);
  t.equal((await fetch(`${base}/nowhere`)).status, 404);

  const page = await fetch(`${base}/match/live-1`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /text\/html/);
  t.equal((await fetch(`${base}/match/live-1/history`)).status, 200);
  t.equal((await fetch(`${base}/api/matches/live-1/history`)).status, 200);
  t.equal((await fetch(`${base}/openapi.json`)).status, 200);
  t.equal((await fetch(`${base}/healthz`)).status, 200);
  t.equal((await fetch(`${base}/readyz`)).status, 200);
  const head = await fetch(`${base}/api/matches/live-1`, { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD works on GET routes');
});
