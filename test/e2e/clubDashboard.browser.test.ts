import { createServer } from 'node:net';
import { browserTest, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture, fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';


async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

browserTest('a club admin in Chromium: sign up, generate a key, sync a match over HTTP, see it, revoke, see the unauthenticated sync', async (t) => {
  const shots = screenshotDir(t);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { app } = await startTestApp(t, { PUBLIC_BASE_URL: base });
  await app.listen({ host: '127.0.0.1', port });
  const browser = await launchChromium(t);
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  /** Clicks a link and waits for the page it leads to. */
  async function follow(link: ReturnType<typeof page.locator>) {
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
  }
  const nav = (name: string) => follow(page.locator('nav.dash').getByRole('link', { name, exact: true }));

  // Sign up
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Club name').fill('Lakeside Volleyball Club');
  await page.getByLabel('Your email').fill('coach@lakeside.test');
  await page.getByLabel('Password').fill('spike and dig 2026');
  await page.screenshot({ path: `${shots}/dashboard-signup.png` });
  await page.getByRole('button', { name: 'Create the club' }).click();
  await page.waitForURL(`${base}/dashboard?done=welcome`);
  const clubId = await page.getByTestId('club-id').innerText();
  t.match(clubId, /^[0-9a-z]{16}$/, 'the dashboard shows the club id');

  // Log out and in again
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/\/dashboard\/login/);
  await page.getByLabel('Email').fill('coach@lakeside.test');
  await page.getByLabel('Password').fill('spike and dig 2026');
  await page.screenshot({ path: `${shots}/dashboard-login.png` });
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/dashboard`);

  // Teams: the fixture's home team is the club's team, so only its players are copied
  const match = fixture({ seed: 11, club: clubId, team: 'x' }) as { homeTeam: { name: string }; playerStats: { name: string; team: string }[]; actions: unknown[] };
  await nav('Teams');
  await page.getByLabel('Name', { exact: true }).fill(match.homeTeam.name);
  await page.getByRole('button', { name: 'Add team' }).click();
  await page.getByLabel('Name', { exact: true }).fill('U18 Men');
  await page.getByRole('button', { name: 'Add team' }).click();
  await page.waitForURL(/done=team-added/);
  await page.screenshot({ path: `${shots}/dashboard-teams.png`, fullPage: true });

  // Connect → Generate App Key
  await nav('Connect');
  const teamId = await page.getByTestId('team-id').first().innerText();
  t.match(teamId, /^[0-9a-z]{10}$/, 'Connect shows the teamId');
  await page.getByLabel('Label').fill('scoring tablet');
  await page.getByRole('button', { name: 'Generate App Key' }).click();
  const key = await page.getByTestId('new-app-key').inputValue();
  t.match(key, /^mlk_[0-9a-z]{10}_[0-9A-Za-z]{38}$/, 'the key is shown once');
  await page.screenshot({ path: `${shots}/dashboard-new-app-key.png`, fullPage: true });

  // Upload a generated fixture with that key, over real HTTP
  const payload = fixtureText({ seed: 11, club: clubId, team: teamId, id: 'lakeside-2026-03-01' });
  let res = await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-app-key': key }, body: payload });
  t.equal(res.status, 201);
  t.same(await res.json(), { id: 'lakeside-2026-03-01', url: `${base}/match/lakeside-2026-03-01` }, 'synced: no crmSync');

  // Players, stats, matches, actions
  await nav('Players');
  const homePlayers = match.playerStats.filter((p) => p.team === 'home');
  t.equal(await page.locator('tr.player').count(), homePlayers.length, "the club's players");
  t.ok(await page.getByRole('cell', { name: homePlayers[0]?.name ?? '', exact: true }).first().isVisible());
  await page.screenshot({ path: `${shots}/dashboard-players.png`, fullPage: true });
  await nav('Stats');
  t.ok(await page.getByRole('columnheader', { name: 'hitting %' }).isVisible(), 'hitting % computed');
  t.equal(await page.locator('tr.player-total').count(), homePlayers.length);
  await page.locator('details.lines summary').first().click();
  await page.getByLabel('Season').selectOption('2025/26');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/season=2025%2F26/);
  t.equal(await page.locator('tr.player-total').count(), homePlayers.length, 'filtered by season');
  await page.screenshot({ path: `${shots}/dashboard-stats.png`, fullPage: true });
  await nav('Matches');
  t.equal(await page.locator('tr.match').count(), 1);
  t.equal(await page.getByRole('link', { name: 'public page' }).getAttribute('href'), `${base}/match/lakeside-2026-03-01`);
  await page.screenshot({ path: `${shots}/dashboard-matches.png`, fullPage: true });
  await follow(page.locator('tr.match a').first());
  t.equal(await page.locator('tr.action').count(), match.actions.length, 'every play-by-play action');
  await page.screenshot({ path: `${shots}/dashboard-match.png` });

  // Sync status: synced with the key
  await nav('Connect');
  await follow(page.getByRole('link', { name: 'Sync status' }));
  const synced = page.locator('tr.sync-row[data-outcome="synced"]');
  t.equal(await synced.count(), 1);
  t.match(await synced.innerText(), new RegExp(`synced with key ${key.slice(0, 19)}`));
  t.match(await synced.innerText(), new RegExp(`\\b${homePlayers.length}\\b`), 'players copied');

  // Revoke the key, upload again: processed without valid authentication (log mode)
  await nav('Connect');
  await page.locator(`tr[data-key-id="${key.slice(4, 14)}"]`).getByRole('button', { name: 'Revoke' }).click();
  await page.waitForURL(/done=key-revoked/);
  t.match(await page.locator('table.app-keys').innerText(), /revoked/);
  await page.screenshot({ path: `${shots}/dashboard-connect.png`, fullPage: true });
  res = await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-app-key': key }, body: fixtureText({ seed: 12, club: clubId, team: teamId, id: 'lakeside-2026-03-02' }) });
  t.same(await res.json(), { id: 'lakeside-2026-03-02', url: `${base}/match/lakeside-2026-03-02` }, 'log mode: no crmSync');
  res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: fixtureText({ seed: 13, club: clubId, team: 'notateam00', id: 'lakeside-typo' }) });
  t.same(await res.json(), { id: 'lakeside-typo', url: `${base}/match/lakeside-typo`, crmSync: 'skipped_auth' }, 'unknown team: skipped');
  await page.goto(`${base}/dashboard/connect/sync-status`);
  const rows = page.locator('tr.sync-row');
  t.same(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome'))), ['skipped', 'unauthenticated', 'synced'], 'newest first');
  t.match(await rows.nth(1).innerText(), /processed without valid authentication[\s\S]*is revoked/);
  await page.screenshot({ path: `${shots}/dashboard-sync-status.png`, fullPage: true });
  await follow(page.getByRole('link', { name: 'Without valid authentication' }));
  t.equal(await rows.count(), 1, 'filtered by outcome');

  await nav('Dashboard');
  await page.screenshot({ path: `${shots}/dashboard-home.png`, fullPage: true });
  t.same(consoleErrors, [], `no console errors: ${consoleErrors.join(' | ')}`);
});
