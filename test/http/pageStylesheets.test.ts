import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { dashboardClient } from '../helpers/browserless.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

/** A CSP header's directives by name. */
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );

t.test("every page: a CSP without 'unsafe-inline' for styles, no inline style, one fingerprinted stylesheet served immutable", async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  // A club with a team, an app key and a synced match, so every dashboard page has content.
  const client = dashboardClient(app);
  await client.get('/dashboard/signup');
  const home = await client.get(
    String(
      (await client.post('/dashboard/signup', { clubName: 'Lakeside VC', email: 'admin@lakeside.test', password: 'correct horse battery' })).headers.location,
    ),
  );
  const clubId = /data-testid="club-id">([0-9a-z]{16})</.exec(home.body)?.[1] ?? '';
  await client.get('/dashboard/teams');
  await client.post('/dashboard/teams', { name: 'Lakeside Wolves' });
  const teamId = /data-testid="team-id">([0-9a-z]{10})</.exec((await client.get('/dashboard/connect')).body)?.[1] ?? '';
  const key = /value="(mlk_[^"]+)"/.exec((await client.post('/dashboard/connect/keys', { label: 'tablet' })).body)?.[1] ?? '';
  const upload = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, ...headers }, body }).then((res) => res.status);
  t.equal(await upload(fixtureText({ club: clubId, team: teamId, id: 'club-match' }), { 'x-app-key': key }), 201);
  t.equal(await upload(fixtureText({ sport: 'basketball', seed: 11, id: 'bb' })), 201);
  t.equal(
    await upload(JSON.stringify({ ...JSON.parse(readFileSync(new URL('../fixtures/football-long-names.json', import.meta.url), 'utf8')), id: 'fb' })),
    201,
  );
  const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const pages: [path: string, status: number][] = [
    ['/match/bb', 200],
    ['/match/fb', 200],
    ['/match/bb?revision=0', 200],
    ['/match/bb?part=plays&page=1', 200],
    ['/match/bb/embed', 200],
    ['/match/bb/history', 200],
    ['/match/no-such-match', 404],
    ['/dashboard/login', 200],
    ['/dashboard/signup', 200],
    ['/dashboard', 200],
    ['/dashboard/teams', 200],
    ['/dashboard/connect', 200],
    ['/dashboard/connect/sync-status', 200],
    ['/dashboard/players', 200],
    ['/dashboard/stats', 200],
    ['/dashboard/matches', 200],
    ['/dashboard/matches/club-match', 200],
    ['/dashboard/matches/no-such-match', 404],
  ];
  const sheets = new Map<string, string>();
  for (const [path, status] of pages) {
    const res = await fetch(`${base}${path}`, { headers: { cookie } });
    const page = await res.text();
    t.equal(res.status, status, `${path}: ${status}`);
    t.match(res.headers.get('content-type'), /^text\/html/, `${path}: a page`);
    const styleSrc = directives(res.headers.get('content-security-policy') ?? '').get('style-src');
    t.same(styleSrc, ["'self'"], `${path}: style-src 'self', no 'unsafe-inline'`);
    t.notMatch(page, /<style[\s>]|<[a-z][^>]*\sstyle=/i, `${path}: no style element or style attribute (the CSP would block them)`);
    const links = [...page.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((match) => match[1] ?? '');
    t.equal(links.length, 1, `${path}: one stylesheet`);
    const href = links[0] ?? '';
    t.match(href, /^\/assets\/[a-z]+\.[0-9a-f]{16}\.css$/, `${path}: its address names its fingerprint`);

    if (!sheets.has(href)) {
      const sheet = await fetch(`${base}${href}`);
      const css = await sheet.text();
      t.equal(sheet.status, 200, `${href}: 200`);
      t.equal(sheet.headers.get('content-type'), 'text/css; charset=utf-8', `${href}: text/css`);
      t.equal(sheet.headers.get('cache-control'), 'public, max-age=31536000, immutable', `${href}: kept a year, never revalidated`);
      t.equal(href.split('.')[1], createHash('sha256').update(css).digest('hex').slice(0, 16), `${href}: the fingerprint is its content's hash`);
      const etag = sheet.headers.get('etag') ?? '';
      t.equal((await fetch(`${base}${href}`, { headers: { 'if-none-match': etag } })).status, 304, `${href}: 304 for its ETag`);
      sheets.set(href, css);
    }
    // A class that stands for a value (the short names' length) has its rule in the page's sheet.
    for (const chars of new Set(page.match(/\bchars-\d+\b/g) ?? [])) t.ok(sheets.get(href)?.includes(`.${chars} {`), `${path}: ${chars} is styled`);
  }
  t.ok(sheets.size >= 4, `each kind of page has its own sheet (${sheets.size})`);
});

t.test("a stylesheet's old fingerprint: the current sheet, kept only briefly; an unknown asset is a 404", async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const href = /<link rel="stylesheet" href="([^"]+)">/.exec(await (await fetch(`${base}/dashboard/login`)).text())?.[1] ?? '';
  const current = await (await fetch(`${base}${href}`)).text();

  const stale = await fetch(`${base}/assets/dashboard.0123456789abcdef.css`);
  t.equal(stale.status, 200, 'a page kept from before a release still gets its styles');
  t.equal(await stale.text(), current);
  t.equal(stale.headers.get('content-type'), 'text/css; charset=utf-8');
  t.equal(stale.headers.get('cache-control'), 'public, max-age=300', 'not kept as if it were that fingerprint');

  for (const path of ['/assets/nope.0123456789abcdef.css', '/assets/dashboard.css', '/assets/dashboard.0123.css', '/assets/nope.js']) {
    const res = await fetch(`${base}${path}`);
    t.equal(res.status, 404, `${path}: 404`);
    t.match(await res.json(), { statusCode: 404, error: 'Not Found' }, `${path}: the app's one not-found answer`);
  }
});
