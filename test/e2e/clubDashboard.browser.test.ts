import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { browserTest, checkAccessibility, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { json, seedFields, startTestApp } from '../helpers/testApp.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The page scrolls sideways nowhere at the viewport's width (tables scroll inside their own box). */
const noSidewaysScroll = async (page: Page) => (await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true;

browserTest(
  'a club admin on a phone (360 px): sign up, key, aliases, syncs, ' +
    'side unknown settled in one click, a flagged sync excluded, keys required, export; axe on every page',
  async (t) => {
    const shots = screenshotDir(t);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { app } = await startTestApp(t, { PUBLIC_BASE_URL: base });
    await app.listen({ host: '127.0.0.1', port });
    const browser = await launchChromium(t);
    const context = await browser.newContext({ viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
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
    const shot = async (name: string) => {
      t.ok(await noSidewaysScroll(page), `${name}: no sideways scroll of the page at 360 px`);
      await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
    };
    const upload = async (body: string, appKey: string | null) =>
      seedFields(await (await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, ...(appKey ? { 'x-app-key': appKey } : {}) }, body })).json());

    // Sign up, log out, log in
    await page.goto(`${base}/dashboard/signup`);
    await page.getByLabel('Club name').fill('Lakeside Volleyball Club');
    await page.getByLabel('Your email').fill('coach@lakeside.test');
    await page.getByLabel('Password').fill('spike and dig 2026');
    await shot('dashboard-signup');
    await page.getByRole('button', { name: 'Create the club' }).click();
    await page.waitForURL(`${base}/dashboard?done=welcome`);
    const clubId = await page.getByTestId('club-id').innerText();
    t.match(clubId, /^[0-9a-z]{16}$/, 'the dashboard shows the club id');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/dashboard\/login/);
    await page.getByLabel('Email').fill('coach@lakeside.test');
    await page.getByLabel('Password').fill('spike and dig 2026');
    await shot('dashboard-login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/dashboard`);

    // Teams: the club calls its team "Lakeside Herons"; the scoring app writes "Lakeside Herons U18 Girls" or "LH Volley"
    await nav('Teams');
    await page.getByLabel('Name', { exact: true }).fill('Lakeside Herons');
    await page.getByRole('button', { name: 'Add team' }).click();
    await page.waitForURL(/done=team-added/);
    await page.getByLabel('other names of Lakeside Herons, one per line').fill('LH Volley');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/done=aliases-saved/);
    await shot('dashboard-teams');

    // Connect → Generate App Key
    await nav('Connect');
    const teamId = await page.getByTestId('team-id').first().innerText();
    await page.getByLabel('Label').fill('scoring tablet');
    await page.getByRole('button', { name: 'Generate App Key' }).click();
    const key = await page.getByTestId('new-app-key').inputValue();
    t.match(key, /^mlk_[0-9a-z]{10}_[0-9A-Za-z]{38}$/, 'the key is shown once');
    await shot('dashboard-new-app-key');

    // Three uploads over real HTTP: one named with a suffix, one with the alias, one the service cannot place
    const named = (seed: number, id: string, homeName: string, awayName: string) => {
      const body = fixture({ seed, club: clubId, team: teamId, id }) as Record<string, unknown> & {
        homeTeam: Record<string, unknown>;
        awayTeam: Record<string, unknown>;
      };
      body.homeTeam = { ...body.homeTeam, name: homeName };
      body.awayTeam = { ...body.awayTeam, name: awayName };
      return JSON.stringify(body);
    };
    t.same(
      await upload(named(11, 'm-suffix', 'Lakeside Herons U18 Girls', 'Hillcrest Owls'), key),
      { id: 'm-suffix', url: `${base}/match/m-suffix` },
      'synced: no crmSync',
    );
    await upload(named(12, 'm-alias', 'Stonebridge Lynx', 'LH Volley'), key);
    await upload(named(13, 'm-unknown', 'Riverside Comets', 'Westbrook Wolves'), key);
    // A flagged sync: no key (the service runs in log mode)
    t.same(
      await upload(named(14, 'm-flagged', 'Lakeside Herons', 'Eastfield Eagles'), null),
      { id: 'm-flagged', url: `${base}/match/m-flagged` },
      'log mode: processed, no crmSync',
    );

    // Matches: the one it cannot place is marked, and counts for neither side until settled
    await nav('Matches');
    t.equal(await page.locator('tr.match').count(), 4);
    t.equal(await page.locator('tr.match[data-side="unknown"]').count(), 1, 'one match with its side unknown');
    t.match(await page.locator('p.notice[role="status"]').innerText(), /1 match has no known side/);
    await shot('dashboard-matches-side-unknown');
    // Its page shows both sides' players (from the payload in the log) for the admin to see which is theirs
    await page.goto(`${base}${await page.locator('tr[data-match-id="m-unknown"] th a').getAttribute('href')}`);
    t.equal(await page.locator('table.match-players').count(), 2, "both sides' players while the side is unknown");
    t.ok(await noSidewaysScroll(page), 'dashboard-match-side-unknown: no sideways scroll of the page at 360 px');
    await page.locator('table.match-players').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/dashboard-match-side-unknown.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${shots}/dashboard-match-side-unknown-1280.png` });
    await page.setViewportSize({ width: 360, height: 780 });
    await nav('Matches');
    await page.locator('.settle-card[data-match-id="m-unknown"]').getByRole('button', { name: 'Away: Westbrook Wolves' }).click();
    await page.waitForURL(/done=side-settled/);
    t.equal(await page.locator('tr.match[data-side="unknown"]').count(), 0, 'settled with one click');
    t.equal(await page.locator('tr[data-match-id="m-unknown"]').getAttribute('data-side'), 'away');
    await shot('dashboard-matches');

    // Sync status: the flagged sync is shown flagged; exclude it from players and stats
    await nav('Connect');
    await follow(page.getByRole('link', { name: 'Sync status' }));
    const flagged = page.locator('tr.sync-row[data-outcome="unauthenticated"]');
    t.match(await flagged.innerText(), /processed without valid authentication[\s\S]*no X-App-Key was sent/);
    await flagged.getByRole('button', { name: 'Exclude from players and stats' }).click();
    await page.waitForURL(/done=match-excluded/);
    t.match(await page.locator('tr.sync-row[data-outcome="unauthenticated"]').innerText(), /Excluded from players and stats/);
    t.notMatch(await page.locator('table.sync-status').innerText(), /Side unknown/, 'the settled match is no longer marked');
    await shot('dashboard-sync-status');

    // Players and stats: only the club's own side of the three counted matches
    const homeOf = (seed: number, side: 'home' | 'away') =>
      (fixture({ seed, club: clubId, team: teamId }) as { playerStats: { team: string; playerId: string }[] }).playerStats.filter((p) => p.team === side)
        .length;
    await nav('Players');
    const players = await page.locator('tr.player').count();
    t.ok(players >= homeOf(11, 'home') && players <= homeOf(11, 'home') + homeOf(12, 'away') + homeOf(13, 'away'), `only the club's side (${players} players)`);
    await shot('dashboard-players');
    await nav('Stats');
    t.ok(await page.getByRole('columnheader', { name: 'Hit %' }).first().isVisible(), 'the same abbreviations as the public page');
    t.ok(await page.locator('abbr[title^="Hitting percentage"]').first().isVisible(), 'explained by their titles');
    t.equal(await page.locator('table.stats tfoot').count(), 1, 'a totals row');
    const firstColumnLeft = await page
      .locator('table.stats tbody th')
      .first()
      .evaluate((th) => th.getBoundingClientRect().left);
    await page
      .locator('table.stats')
      .first()
      .evaluate((table) => table.parentElement?.scrollBy({ left: 400 }));
    t.equal(
      await page
        .locator('table.stats tbody th')
        .first()
        .evaluate((th) => th.getBoundingClientRect().left),
      firstColumnLeft,
      'the player column stays in view while the stats scroll',
    );
    await page
      .locator('table.stats')
      .first()
      .evaluate((table) => table.parentElement?.scrollTo({ left: 0 }));
    await shot('dashboard-stats');

    // Export: the season as CSV for a spreadsheet (the browser's session downloads it)
    const csv = await page.request.get(`${base}/dashboard/export/players.csv`);
    t.equal(csv.status(), 200);
    const csvLines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    t.match(csvLines[0], /^team,teamId,number,name,position,playerId,matchesPlayed,Kills,/, 'a header row');
    t.equal(csvLines.length - 1, players, 'a row per player');

    // A player's match by match lines
    await follow(page.locator('table.stats tbody th a').first());
    t.ok((await page.locator('table.player-lines tbody tr').count()) >= 1, "a player's lines");
    await shot('dashboard-player');

    // Require an app key for every sync: from now on a sync without one is skipped
    await nav('Connect');
    await page.getByRole('button', { name: 'Require an app key for every sync' }).click();
    await page.waitForURL(/done=key-required/);
    t.match(await page.getByTestId('key-requirement').innerText(), /Required since/);
    await shot('dashboard-connect');
    t.same(
      await upload(named(15, 'm-late', 'Lakeside Herons', 'Owls'), null),
      { id: 'm-late', url: `${base}/match/m-late`, crmSync: 'skipped_auth' },
      'required: skipped_auth',
    );

    // One match: side, players in the shared vocabulary, play-by-play
    await nav('Matches');
    await follow(page.locator('tr[data-match-id="m-suffix"] th a'));
    t.match(await page.locator('section.standing').innerText(), /Counts for your team as the home side/);
    await page.screenshot({ path: `${shots}/dashboard-match.png` });
    await nav('Dashboard');
    await shot('dashboard-home');
    t.same(consoleErrors, [], `no console errors: ${consoleErrors.join(' | ')}`);

    // axe-core on every dashboard page, at 360 and 1280 px, light and dark
    const session = await context.storageState();
    await nav('Stats');
    const playerHref = await page.locator('table.stats tbody th a').first().getAttribute('href');
    for (const path of [
      '/dashboard',
      '/dashboard/teams',
      '/dashboard/connect',
      '/dashboard/connect/sync-status',
      '/dashboard/players',
      '/dashboard/stats',
      '/dashboard/matches',
      '/dashboard/matches/m-suffix',
      playerHref ?? '/dashboard/players',
    ]) {
      await checkAccessibility(t, browser, `${base}${path}`, path, session);
    }
  },
);
