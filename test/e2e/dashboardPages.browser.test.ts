import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

type Session = BrowserContextOptions['storageState'];

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * A page at one width and scheme: how wide it is against the viewport, and axe's critical and
 * serious violations. `isMobile` is off: a phone browser would zoom a wider page out to fit,
 * hiding the overflow that makes readers scroll sideways.
 */
async function measure(browser: Browser, url: string, width: number, dark: boolean, session: Session) {
  // axe is injected by the test, so this context alone bypasses the page's CSP.
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    colorScheme: dark ? 'dark' : 'light',
    bypassCSP: true,
    ...(session ? { storageState: session } : {}),
  });
  const page = await context.newPage();
  await page.goto(url);
  const size = (await page.evaluate(
    `(() => {
      const e = document.scrollingElement;
      const wide = [...document.body.querySelectorAll('*')]
        .filter((n) => n.getBoundingClientRect().right > window.innerWidth + 0.5 && !n.closest('.scroll'))
        .slice(0, 3)
        .map((n) => n.tagName + '.' + n.className);
      return { scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, wide };
    })()`,
  )) as { scrollWidth: number; clientWidth: number; wide: string[] };
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as { id: string; impact: string; targets: string[] }[];
  await context.close();
  return { ...size, serious: violations.filter((v) => v.impact === 'critical' || v.impact === 'serious'), minor: violations.length };
}

/** Every page at 360 and 1280 px, light and dark: exactly as wide as the viewport (wide tables scroll in their own box), axe 0 critical/serious. */
async function checkPages(t: Test, browser: Browser, base: string, paths: string[], session: Session) {
  for (const path of paths) {
    for (const width of [360, 1280]) {
      for (const dark of [false, true]) {
        const label = `${path} at ${width} px ${dark ? 'dark' : 'light'}`;
        const { scrollWidth, clientWidth, wide, serious, minor } = await measure(browser, `${base}${path}`, width, dark, session);
        t.equal(scrollWidth, clientWidth, `${label}: scrollWidth ${scrollWidth} = viewport ${clientWidth}${wide.length ? ` (wider: ${wide.join(', ')})` : ''}`);
        t.same(serious, [], `${label}: axe 0 critical/serious (${minor} minor)`);
      }
    }
  }
}

/** Signs a club up through the form and returns the signed-in session. */
async function signUp(browser: Browser, base: string, club: string): Promise<{ session: Session; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Club name').fill(club);
  await page.getByLabel('Your email').fill('coach@lakeside.test');
  await page.getByLabel('Password').fill('spike and dig 2026');
  await page.getByRole('button', { name: 'Create the club' }).click();
  await page.waitForURL(`${base}/dashboard?done=welcome`);
  return { session: await context.storageState(), page };
}

browserTest('every dashboard page at 360 and 1280 px, light and dark: as wide as the viewport, axe clean', async (t) => {
  const { app } = await startTestApp(t, { PUBLIC_BASE_URL: 'http://127.0.0.1' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  const { page, session } = await signUp(browser, base, 'Lakeside Volleyball Club');
  const clubId = await page.getByTestId('club-id').innerText();
  await page.goto(`${base}/dashboard/teams`);
  await page.getByLabel('Name', { exact: true }).fill('U18 Girls');
  await page.getByRole('button', { name: 'Add team' }).click();
  await page.waitForURL(/done=team-added/);
  await page.goto(`${base}/dashboard/connect`);
  const teamId = await page.getByTestId('team-id').first().innerText();
  await page.getByLabel('Label').fill('scoring tablet');
  await page.getByRole('button', { name: 'Generate App Key' }).click();
  const key = await page.getByTestId('new-app-key').inputValue();

  const upload = async (body: Record<string, unknown>, appKey: string | null) =>
    fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, ...(appKey ? { 'x-app-key': appKey } : {}) }, body: JSON.stringify(body) });
  const named = (seed: number, id: string, homeName: string, awayName: string, sport: 'volleyball' | 'basketball' = 'volleyball') => {
    const body = fixture({ seed, club: clubId, team: teamId, id, sport }) as Record<string, unknown> & {
      homeTeam: Record<string, unknown>;
      awayTeam: Record<string, unknown>;
    };
    body.homeTeam = { ...body.homeTeam, name: homeName };
    body.awayTeam = { ...body.awayTeam, name: awayName };
    return body;
  };
  await upload(named(21, 'm-club-name', 'Lakeside Volleyball Club U18 Girls', 'Hillcrest Herons'), key);
  await upload(named(22, 'm-unknown', 'Hillcrest Herons', 'Lakeside VC'), key);
  await upload(named(23, 'm-basketball', 'Sankt Johannes Wolfsburg Basketballverein Jugend', 'Lakeside Volleyball Club U18 Girls', 'basketball'), null);

  // A sync the club cannot place (no such team): the home card explains it beside the last match copied
  await upload({ ...named(24, 'm-no-team', 'Lakeside VC', 'Owls'), teamId: 'no-such-team' }, key);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`${base}/dashboard/matches`);
  t.equal(
    await page.locator('tr[data-match-id="m-club-name"]').getAttribute('data-side'),
    'home',
    '"Lakeside Volleyball Club U18 Girls" is the club\'s name with the team\'s: matched',
  );
  t.equal(await page.locator('tr[data-match-id="m-unknown"]').getAttribute('data-side'), 'unknown', '"Lakeside VC" is not known yet');
  await page.goto(`${base}/dashboard/matches/m-unknown`);
  t.match(
    (await page.locator('.scoreboard').textContent())?.replace(/\s+/g, ' ').trim(),
    /^Hillcrest Herons \d+ : \d+ Lakeside VC$/,
    'the scoreboard reads with spaces between names and score',
  );
  await page.goto(`${base}/dashboard`);
  const card = (await page.getByTestId('sync-card').innerText()).replace(/\s+/g, ' ');
  t.match(card, /Last match copied [^()]*\d\d:\d\d[^()]* \(without a valid app key: flagged\)/, `the card says when a match was last copied: ${card}`);
  t.match(card, /Latest attempt, .* skipped, because this club has no team no-such-team\. That match was saved/, 'and why the latest attempt was skipped');
  t.equal(await page.getByRole('heading', { name: 'Getting started' }).count(), 0, '"Getting started" is gone once matches have synced');
  await page.goto(`${base}/dashboard/connect`);
  t.equal(
    await page
      .locator('table.app-keys code.prefix')
      .first()
      .evaluate((code) => code.getClientRects().length),
    1,
    'a key prefix stays on one line at 360 px',
  );

  const stats = await (await page.request.get(`${base}/dashboard/players`)).text();
  const playerHref = /href="(\/dashboard\/player\?[^"]+)"/.exec(stats)?.[1]?.replaceAll('&amp;', '&') ?? '/dashboard/players';
  await checkPages(
    t,
    browser,
    base,
    [
      '/dashboard',
      '/dashboard/teams',
      '/dashboard/connect',
      '/dashboard/connect/sync-status',
      '/dashboard/players',
      '/dashboard/stats',
      '/dashboard/matches',
      '/dashboard/matches/m-club-name',
      '/dashboard/matches/m-unknown',
      '/dashboard/matches/m-basketball',
      playerHref,
    ],
    session,
  );

  // "Remember this name" when settling: the next match naming the team this way is matched
  await page.goto(`${base}/dashboard/matches`);
  const settle = page.locator('.settle-card[data-match-id="m-unknown"]');
  t.ok(await settle.getByLabel(/Remember the name I pick as a name of U18 Girls/).isChecked(), '"remember this name" is offered, ticked');
  await settle.getByRole('button', { name: 'Away: Lakeside VC' }).click();
  await page.waitForURL(/done=side-settled-remembered/);
  t.equal(await page.locator('tr[data-match-id="m-unknown"]').getAttribute('data-side'), 'away');
  await upload(named(25, 'm-next', 'Lakeside VC', 'Stonebridge Lynx'), key);
  await page.goto(`${base}/dashboard/matches`);
  t.equal(await page.locator('tr[data-match-id="m-next"]').getAttribute('data-side'), 'home', 'the next match with "Lakeside VC" is matched');
  await page.goto(`${base}/dashboard/teams`);
  t.equal(
    await page.getByLabel('other names of U18 Girls, one per line').inputValue(),
    'Lakeside VC',
    'the name is listed under Teams, where it can be removed',
  );
});
