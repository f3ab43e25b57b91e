import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { browserTest, checkAccessibility, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture, fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';
import { EMBED_HEIGHT } from '../../src/http/public/views/matchParts/shareSection.js';

const localFixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/** A page that records dialogs (an executed alert) and console errors. */
async function watchedPage(
  browser: Browser,
  options: { width: number; dark?: boolean } = { width: 1280 },
): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width, height: 900 }, colorScheme: options.dark ? 'dark' : 'light' });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, dialogs, errors };
}

const upload = async (base: string, body: string, method = 'POST', id = '') => {
  const res = await fetch(`${base}/api/matches${id ? `/${id}` : ''}`, { method, headers: json, body });
  await res.text();
  return res.status;
};

/** Waits until the open page shows revision `revision` (swapped in by the live script). */
const waitForRevision = (page: Page, revision: number) => page.locator(`#match-main[data-revision="${revision}"]`).waitFor({ timeout: 60_000 });

browserTest('the match page in Chromium: score, live update without navigation, 360 px layout, shapes, hostile payloads, axe', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);

  const match = fixture({ seed: 7, id: 'browser-vb' }) as {
    homeTeam: { name: string; setsWon: number };
    awayTeam: { name: string; setsWon: number };
    playerStats: { name: string }[];
  };
  t.equal(await upload(base, JSON.stringify(match)), 201);
  const { page, dialogs, errors } = await watchedPage(browser, { width: 1280 });
  t.equal((await page.goto(`${base}/match/browser-vb`))?.status(), 200);
  t.equal(await page.title(), `${match.homeTeam.name} ${match.homeTeam.setsWon}–${match.awayTeam.setsWon} ${match.awayTeam.name} · matchlog`);
  t.equal(await page.getByTestId('score').innerText(), `${match.homeTeam.setsWon} : ${match.awayTeam.setsWon}`);
  t.equal(await page.locator('table.line-score tbody tr').count(), 2, 'score by set, one row per team');
  t.ok(await page.getByText(match.playerStats[0]!.name).first().isVisible(), 'box score');
  t.ok(await page.locator('table.player-stats tfoot th', { hasText: 'Totals' }).first().isVisible(), 'totals row');
  t.ok(await page.locator('abbr[title="Kills"]').first().isVisible(), 'standard abbreviations with titles');
  t.ok(await page.locator('figure.chart svg').first().isVisible(), 'score charts');
  t.notMatch(await page.locator('time').first().innerText(), /T\d\d:\d\d:\d\d/, 'times are not raw ISO');
  t.ok(
    await page
      .getByText(/Live|Any change appears here|Updated/)
      .first()
      .isVisible(),
    'the live bar says updates come by themselves',
  );

  // Sorting on the client: kills, highest first.
  const table = page.locator('table.player-stats').first();
  await table.locator('thead button', { hasText: 'K' }).first().click();
  const kills = await table.locator('tbody tr td:nth-child(2)').allInnerTexts();
  const numbers = kills.filter((k) => k !== '').map(Number);
  t.same(
    numbers,
    [...numbers].sort((a, b) => b - a),
    'sorted by kills, highest first',
  );

  // Live: re-upload over HTTP; the open page changes without a navigation.
  await page.evaluate('window.stayed = true');
  const changed = { ...match, homeTeam: { ...match.homeTeam, setsWon: 9 }, awayTeam: { ...match.awayTeam, name: 'Renamed Visitors' } };
  t.equal(await upload(base, JSON.stringify(changed), 'PUT', 'browser-vb'), 200);
  await waitForRevision(page, 1);
  t.equal(await page.getByTestId('score').innerText(), `9 : ${match.awayTeam.setsWon}`, 'the new score is shown');
  t.equal(await page.evaluate('window.stayed'), true, 'no navigation happened');
  t.match(await page.locator('.live-state').innerText(), /[Uu]pdated just now/);
  t.same(dialogs, []);
  t.same(errors, [], `no console errors: ${errors.join(' | ')}`);

  // 360 px: no sideways page scroll, sticky player column, Set 5 and the running score visible.
  const phone = await watchedPage(browser, { width: 360 });
  await phone.page.goto(`${base}/match/browser-vb`);
  const fits = await phone.page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth');
  t.ok(fits, 'no horizontal page scroll at 360 px');
  await upload(
    base,
    JSON.stringify({
      ...match,
      id: 'five-sets',
      sets: [
        [25, 20],
        [19, 25],
        [25, 23],
        [22, 25],
        [15, 13],
      ],
      homeTeam: { name: 'Hillcrest Community Volleyball Club', setsWon: 3 },
    }),
  );
  await phone.page.goto(`${base}/match/five-sets`);
  const box5 = await phone.page.locator('table.line-score thead th', { hasText: 'S5' }).boundingBox();
  t.ok(box5 !== null && box5.x + box5.width <= 360, 'Set 5 is on screen at 360 px, beside a long team name');
  t.ok(await phone.page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth'), 'still no horizontal page scroll');
  await phone.page.goto(`${base}/match/browser-vb`);
  const board = await phone.page.getByTestId('score').boundingBox();
  t.ok(board !== null && board.height < 60, 'the score does not wrap');
  const scroller = phone.page.locator('.box .scroll').first();
  const nameCell = phone.page.locator('.box table.player-stats tbody th.player').first();
  const before = await nameCell.boundingBox();
  await scroller.evaluate((el: { scrollLeft: number }) => (el.scrollLeft = 400));
  const after = await nameCell.boundingBox();
  t.ok(before && after && Math.abs(before.x - after.x) < 1, 'the player column stays put while the table scrolls');
  t.ok(await phone.page.locator('.scroll-cue').first().isVisible(), 'a visible scroll cue');
  const run = await phone.page.locator('details.play-by-play[open] td.run').first().boundingBox();
  t.ok(run !== null && run.x + run.width <= 360, 'the running score column is on screen');

  // Real shapes.
  await upload(base, localFixture('nba-live-game.json').replace('{\n  "meta"', '{\n  "id": "nba-game",\n  "meta"'));
  await phone.page.goto(`${base}/match/nba-game`);
  t.equal(await phone.page.getByTestId('score').innerText(), '116 : 108', 'NBA live data with string scores');
  t.ok(await phone.page.locator('table.line-score thead th', { hasText: 'Q4' }).isVisible());
  await upload(base, JSON.stringify({ id: 'sb-match', ...(JSON.parse(localFixture('statsbomb-match.json')) as object) }));
  await phone.page.goto(`${base}/match/sb-match`);
  t.equal(await phone.page.getByTestId('score').innerText(), '0 : 3', 'StatsBomb-style flat fields');
  await upload(base, JSON.stringify({ id: 'unknown-shape', foo: { bar: 1 } }));
  await phone.page.goto(`${base}/match/unknown-shape`);
  t.ok(await phone.page.getByText('matchlog cannot read this match').isVisible(), 'says so plainly');
  t.ok(await phone.page.locator('a[href="/api/matches/unknown-shape"]').first().isVisible(), 'and links its JSON');

  // Hostile strings in every field, on the page and through the live update.
  const evil = (where: string) => `<script>alert("${where}")</script><img src=x onerror=alert("${where}")>"'><svg onload=alert("${where}")>`;
  const hostile = (v: number) => ({
    id: 'browser-xss',
    sport: evil('sport'),
    status: evil('status'),
    competition: evil('competition'),
    venue: evil('venue'),
    startedAt: evil('startedAt'),
    homeTeam: { name: evil(`home${v}`), setsWon: v, shortName: evil('short') },
    awayTeam: { name: evil('away'), setsWon: 0 },
    sets: [{ home: evil('set'), away: 1 }],
    playerStats: [
      { playerId: evil('pid'), name: evil('player'), number: evil('number'), position: evil('pos'), team: 'home', stats: { [evil('stat')]: 1, kills: 2 } },
    ],
    actions: [
      { set: 1, skill: evil('skill'), evaluation: evil('eval'), team: evil('team'), playerId: evil('pid'), clock: evil('clock'), score: { home: 1, away: 0 } },
    ],
  });
  await upload(base, JSON.stringify(hostile(1)));
  const xss = await watchedPage(browser, { width: 1280 });
  await xss.page.goto(`${base}/match/browser-xss`);
  await upload(base, JSON.stringify(hostile(2)), 'PUT', 'browser-xss');
  await waitForRevision(xss.page, 1);
  await xss.page.waitForTimeout(300);
  t.same(xss.dialogs, [], 'no script from the payload ran, on load or after the live update');
  t.equal(
    await xss.page.locator('main script, main iframe, main img:not([src$="qr.svg"]), main svg:not(figure.chart svg)').count(),
    0,
    'no element was injected',
  );
  t.match(await xss.page.locator('.board .team.home .name').innerText(), /<script>alert\("home2"\)<\/script>/, 'the new text is shown as text');

  await checkAccessibility(t, browser, `${base}/match/browser-vb`, 'match page');
  await checkAccessibility(t, browser, `${base}/match/browser-vb/history`, 'history page');
  await checkAccessibility(t, browser, `${base}/match/browser-vb/embed`, 'embed');

  // Screenshots: volleyball and basketball, phone and desktop, light and dark.
  await upload(base, fixtureText({ sport: 'basketball', seed: 11, id: 'browser-bb' }));
  await upload(base, fixtureText({ sport: 'volleyball', seed: 7, id: 'shot-vb' }));
  for (const [id, sport] of [
    ['shot-vb', 'volleyball'],
    ['browser-bb', 'basketball'],
  ] as const) {
    for (const width of [360, 1280]) {
      for (const dark of [false, true]) {
        const shot = await watchedPage(browser, { width, dark });
        if (width === 1280) await shot.page.setViewportSize({ width, height: 1400 });
        await shot.page.goto(`${base}/match/${id}`);
        await shot.page.screenshot({ path: `${shots}/match-${sport}-${width}-${dark ? 'dark' : 'light'}.png`, fullPage: false });
        if (width === 360) {
          await shot.page.locator('#box').scrollIntoViewIfNeeded();
          await shot.page.screenshot({ path: `${shots}/match-${sport}-${width}-${dark ? 'dark' : 'light'}-stats.png` });
        }
        await shot.page.context().close();
      }
    }
  }
  const embed = await watchedPage(browser, { width: 360 });
  await embed.page.setViewportSize({ width: 360, height: EMBED_HEIGHT });
  await embed.page.goto(`${base}/match/shot-vb/embed`);
  await embed.page.screenshot({ path: `${shots}/match-embed-360.png` });
});
