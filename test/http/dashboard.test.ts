import t, { type Test } from 'tap';
import { dashboardClient } from '../helpers/browserless.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, seedFields, startTestApp } from '../helpers/testApp.js';

const password = 'correct horse battery';
const clubIdOn = (page: string) => /data-testid="club-id">([0-9a-z]{16})</.exec(page)?.[1] ?? '';

async function signedUp(t: Test, env: Record<string, string> = {}, clubName = 'Lakeside VC', email = 'admin@lakeside.test') {
  const s = await startTestApp(t, env);
  const client = dashboardClient(s.app);
  await client.get('/dashboard/signup');
  const res = await client.post('/dashboard/signup', { clubName, email, password });
  t.equal(res.statusCode, 303, 'signed up');
  const home = await client.get(String(res.headers.location));
  return { ...s, client, home, clubId: clubIdOn(home.body) };
}

t.test('sign up, see the club id, log out, log in', async (t) => {
  const s = await signedUp(t);
  t.equal(s.home.statusCode, 200);
  t.match(s.home.body, /Your club is ready/);
  t.match(s.clubId, /^[0-9a-z]{16}$/, 'the dashboard shows the server-generated club id');
  t.match(s.home.body, /Lakeside VC/);
  t.equal(s.home.headers['content-security-policy']?.toString().includes("default-src 'none'"), true, 'no scripts allowed');
  t.equal(s.home.headers['cache-control'], 'no-store');

  const session = s.client.jar.get('matchlog_session') ?? '';
  let res = await s.client.post('/dashboard/logout', {});
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/dashboard/login?done=logged-out');
  t.equal((await s.client.get('/dashboard')).headers.location, '/dashboard/login', 'logged out');

  // A copy of the old cookie (say, stolen) is refused too: logout is recorded in the club's stream.
  s.client.jar.set('matchlog_session', session);
  t.equal((await s.client.get('/dashboard')).statusCode, 303, 'a session from before the logout no longer works');

  await s.client.get('/dashboard/login');
  res = await s.client.post('/dashboard/login', { email: 'admin@lakeside.test', password: 'wrong password!' });
  t.equal(res.statusCode, 401);
  t.match(res.body, /The email or the password is wrong/);
  res = await s.client.post('/dashboard/login', { email: '  ADMIN@Lakeside.test ', password });
  t.equal(res.statusCode, 303, 'emails compare case-insensitively');
  t.equal(clubIdOn((await s.client.get('/dashboard')).body), s.clubId);
  res = await s.client.post('/dashboard/login', { email: 'nobody@lakeside.test', password });
  t.equal(res.statusCode, 401, 'an unknown email gets the same answer');
  t.match(res.body, /The email or the password is wrong/);
  t.notOk(s.logs.join('').includes(password), 'passwords never reach the log');
});

t.test('sign-up rules', async (t) => {
  const s = await signedUp(t);
  const other = dashboardClient(s.app);
  await other.get('/dashboard/signup');
  let res = await other.post('/dashboard/signup', { clubName: 'Copycats', email: 'Admin@Lakeside.TEST', password });
  t.equal(res.statusCode, 409, 'an email is unique across clubs');
  t.match(res.body, /already exists/);
  t.match(res.body, /value="Copycats"/, 'the form keeps what was typed');
  res = await other.post('/dashboard/signup', { clubName: 'Short', email: 'short@club.test', password: 'short' });
  t.equal(res.statusCode, 400);
  t.match(res.body, /10 to 200 characters/);
  res = await other.post('/dashboard/signup', { clubName: 'X', email: 'not-an-email', password });
  t.equal(res.statusCode, 400);
  t.match(res.body, /email address/);
  res = await other.post('/dashboard/signup', { clubName: '  ', email: 'blank@club.test', password });
  t.equal(res.statusCode, 400);
  t.match(res.body, /club name is empty/);
  res = await other.post('/dashboard/signup', { clubName: 'Second', email: 'blank@club.test', password });
  t.equal(res.statusCode, 303, 'a bad first attempt did not hold the email');
});

t.test('CSRF: every form needs the token of this browser', async (t) => {
  const s = await signedUp(t);
  let res = await s.client.post('/dashboard/teams', { name: 'U16' }, { csrf: null });
  t.equal(res.statusCode, 403, 'no token');
  t.match(res.body, /Form expired/);
  res = await s.client.post('/dashboard/teams', { name: 'U16' }, { csrf: 'forged-token' });
  t.equal(res.statusCode, 403, 'a made-up token');
  const stranger = dashboardClient(s.app);
  await stranger.get('/dashboard/login');
  const strangersToken = stranger.csrf();
  await s.client.get('/dashboard/teams');
  res = await s.client.post('/dashboard/teams', { name: 'U16' }, { csrf: strangersToken });
  t.equal(res.statusCode, 403, "another browser's token");
  await s.client.get('/dashboard/login');
  const loginStranger = dashboardClient(s.app);
  res = await loginStranger.post('/dashboard/login', { email: 'admin@lakeside.test', password }, { csrf: null });
  t.equal(res.statusCode, 403, 'the login form too');
});

t.test('login attempts are rate-limited per address', async (t) => {
  const s = await startTestApp(t);
  const { buildApp } = await import('../../src/runtime/app.js');
  const { loadWriteTokenKey } = await import('../../src/runtime/writeTokenKey.js');
  const app = await buildApp({
    config: s.config,
    engine: s.engine,
    writeTokenKey: loadWriteTokenKey(s.config),
    dashboardRateLimits: { login: { max: 3, timeWindowMs: 60_000 }, signUp: { max: 3, timeWindowMs: 60_000 } },
    logStream: { write: () => {} },
  });
  t.teardown(() => app.close());
  const client = dashboardClient(app);
  await client.get('/dashboard/login');
  const token = client.csrf();
  const statuses = [];
  for (let i = 0; i < 5; i += 1)
    statuses.push((await client.post('/dashboard/login', { email: 'x@y.test', password: 'whatever-it-is' }, { csrf: token })).statusCode);
  t.same(statuses, [401, 401, 401, 429, 429]);
  const res = await client.post('/dashboard/login', { email: 'x@y.test', password: 'whatever-it-is' }, { csrf: token });
  t.match(res.body, /Too many attempts/);
  t.match(String(res.headers['retry-after']), /^\d+$/);
});

t.test('pages behind the login', async (t) => {
  const s = await startTestApp(t);
  const anonymous = dashboardClient(s.app);
  for (const url of [
    '/dashboard',
    '/dashboard/teams',
    '/dashboard/connect',
    '/dashboard/connect/sync-status',
    '/dashboard/players',
    '/dashboard/stats',
    '/dashboard/matches',
    '/dashboard/matches/x',
  ]) {
    const res = await anonymous.get(url);
    t.equal(res.statusCode, 303, `${url} redirects`);
    t.equal(res.headers.location, '/dashboard/login');
  }
  const forged = dashboardClient(s.app);
  forged.jar.set('matchlog_session', 'v1.aaaaaaaaaaaaaaaa.1795335124414.9795378324414.bad-signature');
  t.equal((await forged.get('/dashboard')).statusCode, 303, 'a cookie not signed by the server is refused');
});

t.test('cookies: HttpOnly, SameSite, Secure behind https', async (t) => {
  const s = await signedUp(t, { PUBLIC_BASE_URL: 'https://matchlog.example' });
  const fresh = await s.app.inject({ method: 'GET', url: '/dashboard/login' });
  t.match(
    fresh.cookies.find((c) => c.name === 'matchlog_csrf'),
    { httpOnly: true, sameSite: 'Lax', secure: true, path: '/dashboard' },
    'CSRF secret cookie',
  );
  await s.client.get('/dashboard/login');
  const login = await s.client.post('/dashboard/login', { email: 'admin@lakeside.test', password });
  const cookie = login.cookies.find((c) => c.name === 'matchlog_session');
  t.match(cookie, { httpOnly: true, sameSite: 'Lax', secure: true, path: '/dashboard' });
  t.notOk((await s.app.inject({ method: 'GET', url: '/api/matches/none' })).headers['set-cookie'], 'the API sets no cookies');
  const form = await s.app.inject({ method: 'POST', url: '/api/matches', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
  t.equal(form.statusCode, 415, 'the API still takes JSON only');
});

t.test('teams: add, rename, names unique, ids shown', async (t) => {
  const s = await signedUp(t);
  await s.client.get('/dashboard/teams');
  let res = await s.client.post('/dashboard/teams', { name: 'U16 Women' });
  t.equal(res.headers.location, '/dashboard/teams?done=team-added');
  let page = await s.client.get('/dashboard/teams');
  const teamId = /<code class="id">([0-9a-z]{10})<\/code><\/td><td>U16 Women/.exec(page.body)?.[1];
  t.ok(teamId, 'the team id is shown');
  res = await s.client.post('/dashboard/teams', { name: 'u16 women' });
  t.equal(res.statusCode, 400);
  t.match(res.body, /already has a team named/);
  res = await s.client.post(`/dashboard/teams/${teamId}`, { name: 'U17 Women' });
  t.equal(res.statusCode, 303);
  page = await s.client.get('/dashboard/connect');
  t.match(page.body, new RegExp(`teamId of U17 Women</dt><dd><code class="id" data-testid="team-id">${teamId}<`), 'Connect lists teams with their ids');
  res = await s.client.post('/dashboard/teams/nosuchteam', { name: 'X' });
  t.equal(res.statusCode, 404);
});

t.test('names are escaped everywhere', async (t) => {
  const s = await signedUp(t, {}, '<script>alert(1)</script> & Co', 'xss@club.test');
  t.notOk(s.home.body.includes('<script>alert(1)</script>'));
  t.match(s.home.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; Co/);
});

t.test('Connect: generate a key (shown once), sync with it, see it everywhere, revoke it', async (t) => {
  const s = await signedUp(t);
  await s.client.get('/dashboard/teams');
  await s.client.post('/dashboard/teams', { name: 'U16 Women' });
  const teamId = /data-testid="team-id">([0-9a-z]{10})</.exec((await s.client.get('/dashboard/connect')).body)?.[1] ?? '';
  const created = await s.client.post('/dashboard/connect/keys', { label: 'scoring tablet' });
  t.equal(created.statusCode, 200);
  t.equal(created.headers['cache-control'], 'no-store');
  const key = /data-testid="new-app-key"/.test(created.body) ? (/value="(mlk_[^"]+)"/.exec(created.body)?.[1] ?? '') : '';
  t.match(key, /^mlk_[0-9a-z]{10}_[0-9A-Za-z]{38}$/, 'the new key is on the page');
  const keyId = key.slice(4, 14);
  const connect = await s.client.get('/dashboard/connect');
  t.notOk(connect.body.includes(key), 'and never again');
  t.match(connect.body, new RegExp(`data-key-id="${keyId}"`), 'listed by id');
  t.match(connect.body, new RegExp(`<code class="prefix">${key.slice(0, 19)}…</code>`), 'and prefix');
  t.match(connect.body, /scoring tablet/);
  t.match(connect.body, /never/, 'not used yet');

  const upload = (id: string, appKey: string | null) =>
    s.app.inject({
      method: 'POST',
      url: '/api/matches',
      headers: { ...json, ...(appKey ? { 'x-app-key': appKey } : {}) },
      payload: fixtureText({ club: s.clubId, team: teamId, id }),
    });
  t.same(seedFields((await upload('first', key)).json()), { id: 'first', url: 'http://matchlog.test/match/first' });

  let status = await s.client.get('/dashboard/connect/sync-status');
  t.match(status.body, /class="sync-row" data-outcome="synced"/);
  t.match(status.body, new RegExp(`synced</span> with key <code class="prefix">${key.slice(0, 19)}…`));
  t.match((await s.client.get('/dashboard/connect')).body, /\(1 sync\)/, 'last use is shown');
  const playerRows = async () => ((await s.client.get('/dashboard/players')).body.match(/<tr class="player">/g) ?? []).length;
  t.equal(await playerRows(), 0, "neither side is named like the club's team: the match counts for neither side");
  const unsettled = await s.client.get('/dashboard/matches');
  t.match(unsettled.body, /data-match-id="first" data-side="unknown"/, 'the match is marked side unknown');
  t.match(unsettled.body, /Side unknown: which is your team\?/);
  const playerLinesOnPage = (body: string) => (body.match(/<tr><th scope="row"><span class="no">/g) ?? []).length;
  const unknownPage = (await s.client.get('/dashboard/matches/first')).body;
  t.match(unknownPage, /\(home\)<\/h2>[\s\S]*\(away\)<\/h2>/, "side unknown: the match's page shows both sides, read from the payload in the log");
  t.equal(playerLinesOnPage(unknownPage), 24, 'every player of the payload');
  const settled = await s.client.post('/dashboard/matches/first/side', { side: 'home', returnTo: 'matches' });
  t.equal(settled.headers.location, '/dashboard/matches?done=side-settled');
  t.equal(await playerRows(), 12, 'settled: the players of the home side only');
  const settledPage = (await s.client.get('/dashboard/matches/first')).body;
  t.match(settledPage, /<h2>Players \(12\)<\/h2>/, "settled: the match's page shows the club's players");
  t.equal(playerLinesOnPage(settledPage), 12);

  await s.client.get('/dashboard/matches/first');
  const excluded = await s.client.post('/dashboard/matches/first/counting', { counted: 'no', returnTo: 'match' });
  t.equal(excluded.headers.location, '/dashboard/matches/first?done=match-excluded');
  t.equal(await playerRows(), 0, 'excluded: the match no longer counts');
  t.match((await s.client.get('/dashboard/matches')).body, /data-match-id="first" data-side="home" data-excluded="yes"/);
  await s.client.get('/dashboard/matches/first');
  await s.client.post('/dashboard/matches/first/counting', { counted: 'yes', returnTo: 'match' });
  t.equal(await playerRows(), 12, 're-included');
  await s.client.get('/dashboard/matches');
  t.equal(
    (await s.client.post('/dashboard/matches/never-synced/side', { side: 'home', returnTo: 'matches' })).statusCode,
    404,
    'only matches synced into the club',
  );
  await s.client.get('/dashboard/matches');
  t.equal((await s.client.post('/dashboard/matches/first/side', { side: 'left', returnTo: 'matches' })).statusCode, 400);

  await s.client.get('/dashboard/teams');
  const aliases = await s.client.post(`/dashboard/teams/${teamId}/aliases`, { aliases: 'Lakeside Herons\nLH Girls; Lakeside, U16' });
  t.equal(aliases.headers.location, '/dashboard/teams?done=aliases-saved');
  t.match((await s.client.get('/dashboard/teams')).body, />Lakeside Herons\nLH Girls\nLakeside, U16<\/textarea>/, 'one alias per line; commas stay in a name');

  t.match((await s.client.get('/dashboard/connect')).body, /<strong>Not required<\/strong>/);
  const required = await s.client.post('/dashboard/connect/key-requirement', { required: 'yes' });
  t.equal(required.headers.location, '/dashboard/connect?done=key-required');
  t.match((await s.client.get('/dashboard/connect')).body, /<strong>Required<\/strong> since <time/);
  t.match(
    (await s.client.get('/dashboard/connect/sync-status')).body,
    /data-testid="key-requirement">App key: <strong>Required<\/strong> since/,
    'Sync status shows the setting and since when',
  );
  await s.client.get('/dashboard/connect');
  await s.client.post('/dashboard/connect/key-requirement', { required: 'no' });
  const stats = await s.client.get('/dashboard/stats');
  t.match(stats.body, /hitting %/);
  t.match(stats.body, /<option value="2025\/26">2025\/26<\/option>/, 'season filter offers the synced season');
  const filtered = await s.client.get('/dashboard/stats?season=1999');
  t.match(filtered.body, /No stats for this selection/);
  const matches = await s.client.get('/dashboard/matches');
  t.match(matches.body, /href="http:\/\/matchlog.test\/match\/first">public page/);
  const detail = await s.client.get('/dashboard/matches/first');
  t.ok((detail.body.match(/<tr class="action">/g) ?? []).length > 300, 'play-by-play');

  await s.client.get('/dashboard/connect');
  const revoke = await s.client.post(`/dashboard/connect/keys/${keyId}/revoke`, {});
  t.equal(revoke.headers.location, '/dashboard/connect?done=key-revoked');
  t.match((await s.client.get('/dashboard/connect')).body, /revoked <time/);
  t.same(seedFields((await upload('second', key)).json()), { id: 'second', url: 'http://matchlog.test/match/second' }, 'log mode: processed, no crmSync');
  status = await s.client.get('/dashboard/connect/sync-status');
  t.match(status.body, /data-outcome="unauthenticated"[\s\S]*data-outcome="synced"/, 'newest first');
  t.match(status.body, new RegExp(`key ${keyId} is revoked`));
  const onlyUnauthenticated = await s.client.get('/dashboard/connect/sync-status?outcome=unauthenticated');
  t.equal((onlyUnauthenticated.body.match(/class="sync-row"/g) ?? []).length, 1, 'filter by outcome');
  t.equal((await s.client.get('/dashboard/connect/sync-status?outcome=bogus')).statusCode, 400);

  const other = await signedUp(t, {}, 'Hillcrest', 'other@hillcrest.test');
  const snoop = dashboardClient(other.app);
  t.equal((await snoop.get('/dashboard/matches/first')).statusCode, 303);
  t.notOk(s.logs.join('').includes(key), 'the key never reaches the log');
});

t.test('unknown pages and methods under /dashboard: 404 and 405 like the rest of the service', async (t) => {
  const s = await startTestApp(t);
  t.equal((await s.app.inject({ method: 'GET', url: '/dashboard/nowhere' })).statusCode, 404);
  const res = await s.app.inject({ method: 'GET', url: '/dashboard/logout' });
  t.equal(res.statusCode, 405);
  t.equal(res.headers.allow, 'POST');
});
