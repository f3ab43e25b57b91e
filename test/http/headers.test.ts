import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import t from 'tap';
import { LIVE_PAGE_CSP } from '../../src/http/views/layout.js';
import { json, startTestApp } from '../helpers/testApp.js';

t.test('helmet on every route; pages keep their strict CSP', async (t) => {
  const { app } = await startTestApp(t);
  await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: '{"id":"h1"}' });
  for (const url of ['/api/matches/h1', '/healthz', '/openapi.json', '/match/h1', '/match/h1/history', '/api/matches/h1/history', '/dashboard/login']) {
    const res = await app.inject({ method: 'GET', url });
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`);
    t.ok(res.headers['strict-transport-security'], `${url}: HSTS`);
    t.ok(res.headers['content-security-policy'], `${url}: a CSP`);
  }
  t.equal((await app.inject({ method: 'GET', url: '/match/h1' })).headers['content-security-policy'], LIVE_PAGE_CSP, 'the match page keeps its own CSP');
  t.match(
    String((await app.inject({ method: 'GET', url: '/match/h1/history' })).headers['content-security-policy']),
    /default-src 'none'/,
    'the history page keeps a strict CSP of its own',
  );
  t.equal((await app.inject({ method: 'GET', url: '/docs/' })).statusCode, 200, 'the docs page still loads');
});

t.test("an answer carries each header helmet's own middleware sets, with its value", async (t) => {
  const expected = new Map<string, string>();
  const answer = { setHeader: (name: string, value: unknown) => expected.set(name.toLowerCase(), String(value)), removeHeader: () => {} };
  helmet()({} as IncomingMessage, answer as unknown as ServerResponse, () => {});
  t.ok(expected.size >= 10, 'helmet sets its defaults');
  const { app } = await startTestApp(t);
  const res = await app.inject({ method: 'GET', url: '/api/matches/none' });
  for (const [name, value] of expected) t.equal(res.headers[name], value, name);
});

t.test('CORS on /api/* for any origin, without credentials; not on pages', async (t) => {
  const { app } = await startTestApp(t);
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/api/matches',
    headers: {
      origin: 'https://scorer.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-write-token,x-app-key',
    },
  });
  t.equal(preflight.statusCode, 204);
  t.equal(preflight.headers['access-control-allow-origin'], '*');
  t.match(String(preflight.headers['access-control-allow-headers']), /Content-Type.*X-Write-Token.*X-App-Key/);
  t.match(String(preflight.headers['access-control-allow-methods']), /PUT/);
  t.notOk(preflight.headers['access-control-allow-credentials'], 'no credentials');
  const post = await app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, origin: 'https://scorer.example' }, payload: '{"id":"c1"}' });
  t.equal(post.headers['access-control-allow-origin'], '*');
  const page = await app.inject({ method: 'GET', url: '/match/c1', headers: { origin: 'https://scorer.example' } });
  t.notOk(page.headers['access-control-allow-origin'], 'pages are not CORS-enabled');
});

t.test('OpenAPI: servers from PUBLIC_BASE_URL; write token and app key are security schemes', async (t) => {
  const { app } = await startTestApp(t, { PUBLIC_BASE_URL: 'https://matches.example.org' });
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  t.equal(doc.servers[0].url, 'https://matches.example.org');
  t.match(doc.components.securitySchemes, {
    writeToken: { type: 'apiKey', in: 'header', name: 'X-Write-Token' },
    appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key' },
  });
  t.same(doc.paths['/api/matches'].post.security, [{}, { writeToken: [] }, { appKey: [] }, { writeToken: [], appKey: [] }]);
});
