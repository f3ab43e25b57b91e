import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { PAGE_CSP } from '../../src/http/views/layout.js';
import { json, startTestApp } from '../helpers/testApp.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over a real socket; the path is sent exactly as given (no client-side encoding). */
function send(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listening(t: Parameters<typeof startTestApp>[0]) {
  const started = await startTestApp(t);
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (started.app.server.address() as AddressInfo).port;
  await started.app.inject({
    method: 'PUT',
    url: '/api/matches/known',
    headers: json,
    payload: JSON.stringify({ homeTeam: { name: 'Herons' }, awayTeam: { name: 'Owls' } }),
  });
  return port;
}

/** The JSON error body of the one mapping. */
function errorJson(t: Test, answer: Answer, status: number, label: string) {
  t.equal(answer.status, status, `${label}: status`);
  t.match(answer.headers['content-type'], /^application\/json/, `${label}: JSON`);
  t.equal(answer.headers['x-content-type-options'], 'nosniff', `${label}: nosniff`);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  t.same(Object.keys(body).sort(), ['error', 'message', 'statusCode'], `${label}: {statusCode, error, message}`);
  t.equal(body.statusCode, status);
  return body;
}

/** An HTML error page with the pages' look and headers. */
function errorPage(t: Test, answer: Answer, status: number, label: string) {
  t.equal(answer.status, status, `${label}: status`);
  t.match(answer.headers['content-type'], /^text\/html; charset=utf-8/, `${label}: a page`);
  t.equal(answer.headers['x-content-type-options'], 'nosniff', `${label}: nosniff`);
  t.match(answer.headers['content-security-policy'], /default-src 'none'/, `${label}: a page's CSP`);
  t.match(answer.body, /^<!doctype html>/);
  t.match(answer.body, /<header class="site"><a href="\/">matchlog<\/a><\/header>/, `${label}: the pages' frame`);
  t.ok(answer.body.includes(`HTTP ${status}`), `${label}: names the status`);
}

t.test('a browser asking for an address no route has under /match or /dashboard gets an HTML 404 page; API clients keep JSON', async (t) => {
  const port = await listening(t);
  const pages = ['/dashboard/nope', '/dashboard/matches/x/nope', '/match/x/nope', '/match/known/nope', '/match'];
  for (const path of pages) {
    const page = await send(port, path, { accept: BROWSER });
    errorPage(t, page, 404, path);
    t.match(page.body, /<h1>Page not found<\/h1>/, `${path}: says the page is not there (not the match)`);
    t.ok(page.body.includes(`no route for GET ${path}`), `${path}: the same message as the JSON`);
    if (path.startsWith('/dashboard')) t.match(page.body, /Back to the dashboard/, `${path}: the dashboard's look`);
    t.equal(page.headers['content-security-policy'], PAGE_CSP, `${path}: no script may run`);
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/html']) {
      const body = errorJson(t, await send(port, path, accept === undefined ? {} : { accept }), 404, `${path} (${accept ?? 'no Accept'})`);
      t.equal(body.message, `no route for GET ${path}`);
    }
  }
  // Outside the page prefixes everything stays JSON, whoever asks.
  errorJson(t, await send(port, '/nope', { accept: BROWSER }), 404, '/nope');
  errorJson(t, await send(port, '/api/nope', { accept: BROWSER }), 404, '/api/nope');
  errorJson(t, await send(port, '/matches', { accept: BROWSER }), 404, '/matches (not under /match/)');
});

t.test('a method a page does not take is a 405 page for browsers, JSON for the rest, with Allow either way', async (t) => {
  const port = await listening(t);
  const page = await send(port, '/match/known', { accept: BROWSER }, 'DELETE');
  errorPage(t, page, 405, 'DELETE /match/known');
  t.equal(page.headers.allow, 'GET, HEAD');
  const api = await send(port, '/match/known', {}, 'DELETE');
  errorJson(t, api, 405, 'DELETE /match/known (API)');
  t.equal(api.headers.allow, 'GET, HEAD');
});

t.test('what a browser typed into the address bar is shown escaped, never as markup', async (t) => {
  const port = await listening(t);
  const page = await send(port, '/match/x/<script>alert(1)</script>', { accept: BROWSER });
  errorPage(t, page, 404, 'markup in the path');
  t.notOk(page.body.includes('<script>'), 'no script tag');
  t.ok(page.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'escaped');
  const dashboard = await send(port, '/dashboard/"><svg/onload=alert(1)>', { accept: BROWSER });
  errorPage(t, dashboard, 404, 'markup in a dashboard path');
  t.notOk(dashboard.body.includes('<svg'), 'no svg tag');
  t.ok(dashboard.body.includes('&quot;&gt;&lt;svg/onload=alert(1)&gt;'), 'escaped');
});

t.test("the live route's errors go through the same mapping: JSON to its event source, a page to a browser", async (t) => {
  const port = await listening(t);
  for (const accept of ['text/event-stream', 'application/json', '*/*']) {
    const body = errorJson(t, await send(port, '/match/nope/live', { accept }), 404, `live, ${accept}`);
    t.equal(body.message, 'no match with this id; live updates are only for matches that exist');
  }
  errorJson(t, await send(port, '/match/nope/live'), 404, 'live, no Accept');
  const page = await send(port, '/match/nope/live', { accept: BROWSER });
  errorPage(t, page, 404, 'live, browser');
  t.match(page.body, /<h1>Match not found<\/h1>/);
});

t.test('an address Fastify cannot route (bad percent-encoding, a part too long) gets the same mapping, not its own JSON', async (t) => {
  const port = await listening(t);
  const badUrl = errorJson(t, await send(port, '/api/matches/%E0%A4%A'), 400, 'bad percent-encoding');
  t.match(badUrl.message, /% in it must be followed by two hexadecimal digits/);
  t.equal(badUrl.error, 'Bad Request');
  errorPage(t, await send(port, '/match/%E0%A4%A/live', { accept: BROWSER }), 400, 'bad percent-encoding, browser');
  const long = await send(port, `/api/matches/${'x'.repeat(600)}`);
  const tooLong = errorJson(t, long, 414, 'a part too long');
  t.equal(tooLong.error, 'URI Too Long');
  t.match(tooLong.message, /longer than this server accepts/);
  t.ok(long.headers['x-request-id'], 'named by its request id, like every answer');
  errorPage(t, await send(port, `/match/${'x'.repeat(600)}`, { accept: BROWSER }), 414, 'a part too long, browser');
});

t.test('a malformed revision is a 400 saying what to fix, on every route that takes one; one the match has not reached is a 404', async (t) => {
  const port = await listening(t);
  const routes = [
    '/api/matches/known?revision=',
    '/api/matches/known/payload?revision=',
    '/match/known?revision=',
    '/match/known/card.png?revision=',
    '/api/matches/known/history?from=',
    '/match/known/history?from=',
  ];
  for (const route of routes) {
    for (const bad of ['abc', '-1', '1.5', '99999999999999999999', '9007199254740992', '']) {
      const answer = await send(port, `${route}${bad}`, { accept: route.startsWith('/api/') ? 'application/json' : BROWSER });
      const field = route.endsWith('from=') ? 'from' : 'revision';
      const rule = `querystring.${field} must be a whole number from 0 to 9007199254740991`;
      if (route.startsWith('/api/')) t.match(errorJson(t, answer, 400, `${route}${bad}`).message, rule);
      else {
        errorPage(t, answer, 400, `${route}${bad}`);
        t.ok(answer.body.includes(rule), `${route}${bad}: says what to fix`);
      }
    }
  }
  for (const route of [
    '/api/matches/known?revision=7',
    '/api/matches/known/payload?revision=7',
    '/match/known?revision=7',
    '/match/known/card.png?revision=7',
  ]) {
    t.equal((await send(port, route)).status, 404, `${route}: well-formed, not reached`);
  }
  t.equal((await send(port, '/match/known?revision=0')).status, 200);
  t.equal((await send(port, '/match/known/history?from=0')).status, 200);
});

t.test("the pages' other query parameters are checked the same way; unknown ones are let through", async (t) => {
  const port = await listening(t);
  const bad: [string, string][] = [
    ['/match/known?part=zzz', 'querystring.part must be one of main, plays'],
    ['/match/known?part=plays&page=0', 'querystring.page must be a whole number from 1 to 9007199254740991 (a page of plays: 1, 2, …)'],
    ['/match/known?part=plays&page=x', 'querystring.page must be a whole number from 1 to 9007199254740991'],
    ['/match/known/embed?part=plays', 'querystring.part must be main (main, or nothing for the whole widget)'],
    ['/match/known/history?order=sideways', 'querystring.order must be one of newest, oldest'],
  ];
  for (const [url, message] of bad) {
    const page = await send(port, url, { accept: BROWSER });
    errorPage(t, page, 400, url);
    t.ok(page.body.includes(message), `${url}: ${message}`);
  }
  for (const url of ['/match/known?utm_source=chat', '/match/known?part=main', '/match/known/embed?part=main', '/match/known/history?order=oldest&fbclid=x']) {
    t.equal((await send(port, url)).status, 200, url);
  }
});
