import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { json, logLines, startTestApp } from '../helpers/testApp.js';

const tokenA = 'tokenA-0123456789abcdef';
const tokenB = 'tokenB-0123456789abcdef';

t.test('POST creates a match; GET returns the payload as sent plus metadata', async (t) => {
  const { app } = await startTestApp(t);
  const payload = fixtureText({ seed: 11, id: 'vb-11' });
  const created = await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload });
  t.equal(created.statusCode, 201);
  t.match(created.json(), { id: 'vb-11', url: 'http://matchlog.test/match/vb-11', receipt: { logIndex: 0 } });

  const view = await app.inject({ method: 'GET', url: '/api/matches/vb-11' });
  t.equal(view.statusCode, 200);
  t.match(view.headers['content-type'], /^application\/json/);
  t.ok(view.body.includes(`"payload":${payload}}`), 'the payload text is returned byte for byte');
  const body = view.json();
  t.match(body, { id: 'vb-11', url: 'http://matchlog.test/match/vb-11', revision: 0, versions: 1, protected: false });
  t.equal(body.createdAt, body.updatedAt);
  t.ok(!Number.isNaN(Date.parse(body.createdAt)));
  t.same(body.payload, JSON.parse(payload));
});

t.test('POST without an id gets a UUID', async (t) => {
  const { app } = await startTestApp(t);
  const res = await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: { sport: 'volleyball' } });
  t.equal(res.statusCode, 201);
  const { id, url } = res.json();
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.equal(url, `http://matchlog.test/match/${id}`);
  const view = await app.inject({ method: 'GET', url: `/api/matches/${id}` });
  t.same(view.json().payload, { sport: 'volleyball' }, 'stored as sent, without an id added');
});

t.test('write protection over HTTP, per the state table', async (t) => {
  const { app } = await startTestApp(t);
  const send = (method: 'POST' | 'PUT', id: string, payload: object, token?: string) =>
    app.inject({
      method,
      url: method === 'POST' ? '/api/matches' : `/api/matches/${id}`,
      headers: { ...json, ...(token ? { 'x-write-token': token } : {}) },
      payload: method === 'POST' ? { id, ...payload } : payload,
    });
  const view = async (id: string) => (await app.inject({ method: 'GET', url: `/api/matches/${id}` })).json();

  t.test('POST with a token protects; the same token upserts (201 again); others get 403', async (t) => {
    t.equal((await send('POST', 'p1', { v: 1 }, tokenA)).statusCode, 201);
    t.equal((await view('p1')).protected, true);
    t.equal((await send('POST', 'p1', { v: 2 }, tokenA)).statusCode, 201, 'retried POST with the same token');
    t.equal((await view('p1')).payload.v, 2);
    const forbidden = await send('POST', 'p1', { v: 3 }, tokenB);
    t.equal(forbidden.statusCode, 403);
    t.match(forbidden.json(), { statusCode: 403, error: 'Forbidden', message: /X-Write-Token/ });
    t.equal((await send('POST', 'p1', { v: 3 })).statusCode, 403, 'missing token');
    t.equal((await send('PUT', 'p1', { v: 3 })).statusCode, 403, 'PUT without token');
    t.equal((await send('PUT', 'p1', { v: 3 }, tokenB)).statusCode, 403, 'PUT with another token');
    const unchanged = await view('p1');
    t.match(unchanged, { revision: 1, versions: 2, protected: true, payload: { v: 2 } }, 'rejected writes change nothing');
    const put = await send('PUT', 'p1', { v: 4 }, tokenA);
    t.equal(put.statusCode, 200);
    t.match(put.json(), { id: 'p1', url: 'http://matchlog.test/match/p1' });
    t.match(await view('p1'), { versions: 3, protected: true, payload: { v: 4 } });
  });

  t.test('PUT-create is unprotected even with the header', async (t) => {
    t.equal((await send('PUT', 'u1', { v: 1 }, tokenA)).statusCode, 200);
    t.equal((await view('u1')).protected, false);
    t.equal((await send('PUT', 'u1', { v: 2 })).statusCode, 200, 'anyone may update it');
    t.equal((await send('POST', 'u1', { v: 3 }, tokenB)).statusCode, 201);
  });

  t.test('a match created without a token never becomes protected', async (t) => {
    t.equal((await send('POST', 'l1', { v: 1 })).statusCode, 201);
    t.equal((await send('POST', 'l1', { v: 2 }, tokenA)).statusCode, 201);
    t.equal((await send('PUT', 'l1', { v: 3 })).statusCode, 200);
    t.match(await view('l1'), { protected: false, versions: 3, payload: { v: 3 } });
  });
});

t.test('an upload sent again unchanged is answered as before and stores no version', async (t) => {
  const { app, engine, logs } = await startTestApp(t);
  const payload = fixtureText({ seed: 12, id: 'retry-1' });
  const post = () => app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-write-token': tokenA }, payload });
  const first = await post();
  for (const again of [await post(), await post()]) {
    t.equal(again.statusCode, 201, 'a timed-out creating POST sent again');
    t.same(again.json(), first.json());
  }
  const put = await app.inject({ method: 'PUT', url: '/api/matches/retry-1', headers: { ...json, 'x-write-token': tokenA }, payload });
  t.equal(put.statusCode, 200);
  t.equal(
    (await app.inject({ method: 'PUT', url: '/api/matches/retry-1', headers: json, payload })).statusCode,
    403,
    'the same text without the token is still refused',
  );
  t.match((await app.inject({ method: 'GET', url: '/api/matches/retry-1' })).json(), { revision: 0, versions: 1 });
  t.equal((await engine.eventStore.readStream('match-retry-1')).length, 1, 'one event in the log');
  const lines = logLines<{ msg: string; upload?: { stored: boolean } }>(logs);
  t.equal(lines.filter((line) => line.msg === 'request completed' && line.upload?.stored === false).length, 3, 'each repeat says so on its access line');
  t.equal(lines.filter((line) => line.upload !== undefined).length, 3, 'and on no line of its own');
  const spaced = payload.replace('{', '{ ');
  t.equal((await app.inject({ method: 'PUT', url: '/api/matches/retry-1', headers: { ...json, 'x-write-token': tokenA }, payload: spaced })).statusCode, 200);
  t.match(
    (await app.inject({ method: 'GET', url: '/api/matches/retry-1' })).json(),
    { revision: 1, versions: 2 },
    'other bytes are another version, even if they mean the same',
  );
});

t.test('responses never carry the token or its hash', async (t) => {
  const { app } = await startTestApp(t);
  const created = await app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-write-token': tokenA }, payload: { id: 's1' } });
  const view = await app.inject({ method: 'GET', url: '/api/matches/s1' });
  const page = await app.inject({ method: 'GET', url: '/match/s1' });
  for (const res of [created, view, page]) {
    t.notOk(res.body.includes(tokenA), 'no token');
    t.notOk(res.body.includes('hmac-sha256'), 'no hash');
    t.notOk(JSON.stringify(res.headers).includes(tokenA), 'not in headers either');
  }
});

t.test('bad input: 400 with a message, and nothing is stored', async (t) => {
  const { app, engine } = await startTestApp(t);
  const cases: { name: string; payload: string; headers?: Record<string, string>; message: RegExp }[] = [
    { name: 'invalid JSON', payload: '{"id": "x",', message: /not valid JSON/ },
    { name: 'empty body', payload: '', message: /empty/ },
    { name: 'an array', payload: '[{"id":"x"}]', message: /body must be object/ },
    { name: 'a string', payload: '"x"', message: /body must be object/ },
    { name: 'null', payload: 'null', message: /body must be object/ },
    { name: 'numeric id', payload: '{"id": 12}', message: /body\.id must be string/ },
    { name: 'id with a slash', payload: '{"id": "a/b"}', message: /body\.id must match pattern/ },
    { name: 'dot-dot id', payload: '{"id": ".."}', message: /body\.id must match pattern/ },
    { name: 'id with a control character', payload: '{"id": "a\\u0000b"}', message: /body\.id must match pattern/ },
    { name: 'huge id', payload: JSON.stringify({ id: 'a'.repeat(129) }), message: /body\.id must match pattern/ },
    { name: 'empty id', payload: '{"id": ""}', message: /body\.id must match pattern/ },
    { name: 'prototype poisoning', payload: '{"id":"pp","__proto__":{"x":1}}', message: /not valid JSON|prototype/i },
    {
      name: 'malformed token',
      payload: '{"id":"tok"}',
      headers: { 'x-write-token': 'short' },
      message: /X-Write-Token must be 8-1024 visible ASCII characters/,
    },
    { name: 'token with spaces', payload: '{"id":"tok"}', headers: { 'x-write-token': 'has spaces in it 0123' }, message: /X-Write-Token/ },
  ];
  for (const c of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, ...c.headers }, payload: c.payload });
    t.equal(res.statusCode, 400, c.name);
    t.match(res.json(), { statusCode: 400, error: 'Bad Request', message: c.message }, c.name);
  }
  const put = await app.inject({ method: 'PUT', url: '/api/matches/a%2Fb', headers: json, payload: '{}' });
  t.equal(put.statusCode, 400, 'unsafe id in the path');
  const mismatch = await app.inject({ method: 'PUT', url: '/api/matches/one', headers: json, payload: '{"id":"two"}' });
  t.equal(mismatch.statusCode, 400);
  t.match(mismatch.json().message, /differs from the id in the path/);
  t.equal(await app.inject({ method: 'GET', url: '/api/matches/one' }).then((r) => r.statusCode), 404, 'nothing stored');
  t.equal(await app.inject({ method: 'GET', url: '/api/matches/tok' }).then((r) => r.statusCode), 404, 'nothing stored');
  t.equal(await app.inject({ method: 'GET', url: '/api/matches/pp' }).then((r) => r.statusCode), 404, 'nothing stored');
  t.equal(await engine.eventStore.headPosition(), null, 'the log is empty');
});

t.test('415 for anything but JSON; 413 above MAX_BODY_BYTES', async (t) => {
  const { app } = await startTestApp(t, { MAX_BODY_BYTES: '4096' });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
    const res = await app.inject({ method: 'POST', url: '/api/matches', headers: { 'content-type': type }, payload: '{"id":"x"}' });
    t.equal(res.statusCode, 415, type);
    t.match(res.json(), { statusCode: 415, error: 'Unsupported Media Type', message: /Content-Type: application\/json/ });
  }
  const vendor = await app.inject({
    method: 'POST',
    url: '/api/matches',
    headers: { 'content-type': 'application/vnd.matchlog+json' },
    payload: '{"id":"vendor"}',
  });
  t.equal(vendor.statusCode, 201, '+json media types are JSON');
  const charset = await app.inject({
    method: 'POST',
    url: '/api/matches',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    payload: '{"id":"cs"}',
  });
  t.equal(charset.statusCode, 201, 'a charset parameter is fine');
  const big = JSON.stringify({ id: 'big', filler: 'x'.repeat(5000) });
  const tooLarge = await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: big });
  t.equal(tooLarge.statusCode, 413);
  t.match(tooLarge.json(), { statusCode: 413, error: 'Payload Too Large', message: /MAX_BODY_BYTES/ });
  const put = await app.inject({ method: 'PUT', url: '/api/matches/big', headers: json, payload: big });
  t.equal(put.statusCode, 413, 'PUT too');
  t.equal((await app.inject({ method: 'GET', url: '/api/matches/big' })).statusCode, 404);
});

t.test('404s are JSON for the API and for unknown routes; HTML for the page', async (t) => {
  const { app } = await startTestApp(t);
  const api = await app.inject({ method: 'GET', url: '/api/matches/nope' });
  t.equal(api.statusCode, 404);
  t.match(api.json(), { statusCode: 404, error: 'Not Found', message: /no match with id "nope"/ });
  const route = await app.inject({ method: 'GET', url: '/api/nothing-here' });
  t.equal(route.statusCode, 404);
  t.match(route.json(), { statusCode: 404, error: 'Not Found', message: /no route for GET \/api\/nothing-here/ });
  const method = await app.inject({ method: 'PATCH', url: '/api/matches/nope' });
  t.equal(method.statusCode, 405, 'a known path with another method');
  t.equal(method.headers.allow, 'GET, HEAD, PUT, DELETE');
  t.match(method.json(), { statusCode: 405, error: 'Method Not Allowed', message: /PATCH is not allowed on \/api\/matches\/nope; use GET, HEAD, PUT, DELETE/ });
  const page = await app.inject({ method: 'GET', url: '/match/nope' });
  t.equal(page.statusCode, 404);
  t.match(page.headers['content-type'], /text\/html/);
  t.match(page.body, /Match not found/);
  const unsafe = await app.inject({ method: 'GET', url: '/match/%3Cscript%3E' });
  t.equal(unsafe.statusCode, 404);
  t.notOk(unsafe.body.includes('<script>'), 'the id is escaped on the 404 page');
});

t.test('the public page shows teams, score, stats and play-by-play, escaped, with no script but our own file', async (t) => {
  const { app } = await startTestApp(t);
  const volleyball = JSON.parse(fixtureText({ seed: 3, id: 'page-vb' }));
  await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: volleyball });
  const page = await app.inject({ method: 'GET', url: '/match/page-vb' });
  t.equal(page.statusCode, 200, page.statusCode === 200 ? 'ok' : page.body.slice(0, 300));
  t.match(page.headers['content-security-policy'], /default-src 'none'/);
  t.ok(page.body.includes(volleyball.homeTeam.name) && page.body.includes(volleyball.awayTeam.name), 'teams');
  const score = (home: number, away: number) => `<span>${home}</span><span class="colon"> : </span><span>${away}</span>`;
  t.ok(page.body.includes(score(volleyball.homeTeam.setsWon, volleyball.awayTeam.setsWon)), 'sets won');
  t.match(page.body, /Score by set/);
  t.ok(page.body.includes(volleyball.playerStats[0].name), 'player stats');
  t.match(page.body, /Play-by-play/, 'play-by-play');
  t.same(page.body.match(/<script[^>]*>/gi), ['<script src="/assets/live.js" defer>'], 'no script element but the same-origin file');

  const basketball = JSON.parse(fixtureText({ sport: 'basketball', seed: 4, id: 'page-bb' }));
  await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: basketball });
  const bb = await app.inject({ method: 'GET', url: '/match/page-bb' });
  t.ok(bb.body.includes(score(basketball.homeTeam.score, basketball.awayTeam.score)), 'basketball score');
  t.match(bb.body, /Score by period/);

  const hostile = {
    id: 'xss',
    homeTeam: { name: '<script>alert(1)</script>' },
    awayTeam: { name: '"><img src=x onerror=alert(2)>' },
    venue: '</style><script>alert(3)</script>',
  };
  await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: hostile });
  const escaped = await app.inject({ method: 'GET', url: '/match/xss' });
  t.same(
    escaped.body.match(/<script[^>]*>|<img[^>]*>/gi),
    ['<script src="/assets/live.js" defer>', '<img src="/match/xss/qr.svg" alt="QR code for http://matchlog.test/match/xss" width="132" height="132">'],
    'payload markup is escaped',
  );
  t.ok(escaped.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

t.test('odd payload shapes degrade gracefully on the page', async (t) => {
  const { app } = await startTestApp(t);
  const shapes: unknown[] = [
    {},
    { homeTeam: 'Home FC', awayTeam: 'Away FC', score: { home: 2, away: 1 } },
    { homeTeam: { name: 5 }, sets: [[25, 20], [20, 25], 'x', null], playerStats: 'none', actions: [null, 1, 'a', { set: 'one' }] },
    { playerStats: { p1: { name: 'Keyed', number: 7, kills: 3, nested: { a: 1 } }, p2: null }, actions: { not: 'an array' } },
    { periods: [{ period: 1, home: 20, away: 18 }], homeTeam: { name: 'H', score: 'many' }, teams: { away: { name: 'A' } } },
    { playerStats: [{ stats: { kills: Number.MAX_VALUE, deep: { deeper: { deepest: { x: 1 } } } } }], actions: [{ score: 'x' }] },
  ];
  for (const [i, payload] of shapes.entries()) {
    const id = `odd-${i}`;
    t.equal((await app.inject({ method: 'PUT', url: `/api/matches/${id}`, headers: json, payload: payload as object })).statusCode, 200);
    const page = await app.inject({ method: 'GET', url: `/match/${id}` });
    t.equal(page.statusCode, 200, `shape ${i} renders`);
  }
  t.match((await app.inject({ method: 'GET', url: '/match/odd-1' })).body, /Home FC vs Away FC/);
  t.match((await app.inject({ method: 'GET', url: '/match/odd-3' })).body, /Keyed/);
});

t.test('OpenAPI document, docs page, health and readiness', async (t) => {
  const { app } = await startTestApp(t);
  const spec = await app.inject({ method: 'GET', url: '/openapi.json' });
  t.equal(spec.statusCode, 200);
  const doc = spec.json();
  t.equal(doc.openapi, '3.0.3');
  t.ok(doc.paths['/api/matches'].post, 'POST documented');
  t.ok(doc.paths['/api/matches/{id}'].put && doc.paths['/api/matches/{id}'].get, 'PUT and GET documented');
  t.ok(doc.paths['/api/matches'].post.responses['201'], '201 documented');
  t.ok(doc.paths['/api/matches/{id}'].put.responses['403'], '403 documented');
  const docs = await app.inject({ method: 'GET', url: '/docs/' });
  t.equal(docs.statusCode, 200);
  t.match(docs.body, /swagger/i);
  t.same((await app.inject({ method: 'GET', url: '/healthz' })).json(), { status: 'ok' });
  await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: { id: 'ready' } });
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 200);
  t.match(ready.json(), { status: 'ready', projections: [{ name: 'publicView', lag: 0, failure: null }] });
});

t.test('request ids are echoed; secrets never reach the log', async (t) => {
  const { app, logs } = await startTestApp(t);
  const appKey = 'mlk_secretappkey0123456789';
  const res = await app.inject({
    method: 'POST',
    url: '/api/matches',
    headers: { ...json, 'x-write-token': tokenA, 'x-app-key': appKey, 'x-request-id': 'req-42' },
    payload: { id: 'logged' },
  });
  t.equal(res.headers['x-request-id'], 'req-42');
  t.match(res.headers['x-request-id'], /./);
  await app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-write-token': tokenB }, payload: { id: 'logged' } });
  const text = logs.join('');
  t.ok(text.includes('req-42'), 'logs carry the request id');
  t.notOk(text.includes(tokenA) || text.includes(tokenB), 'no write token in the log');
  t.notOk(text.includes(appKey), 'no app key in the log');
  const generated = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
  t.match(generated.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'an unusable request id is replaced');
});
