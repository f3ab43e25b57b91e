import type { Browser } from 'playwright-core';
import { browserTest, checkAccessibility, launchChromium, screenshotDir, cookieSession } from '../helpers/browser.js';
import { publicClubWorld, u14Season } from '../helpers/publicClub.js';

const noSidewaysScroll = async (browser: Browser, url: string, width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  const fits = (await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true;
  await context.close();
  return fits;
};

/** What the team page's leaders and roster show at each privacy level, for the fixture's #7 Annalena Brightwater. */
const SHOWN_AT = { full: 'Annalena Brightwater', 'first-initial': 'Annalena B.', initials: 'A. B.', numbers: '#7' } as const;

browserTest('club and team pages in Chromium at 360 and 1280 px: lists, live marked, each privacy level, axe clean, no sideways scroll', async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  await w.setClubPage(true);
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);
  const teamUrl = `${w.base}${w.clubPath}/u14-girls`;

  for (const [level, shown] of Object.entries(SHOWN_AT)) {
    await w.setTeam(w.u14, { privacy: level, roster: 'shown' });
    const context = await browser.newContext({ viewport: { width: 360, height: 900 } });
    const page = await context.newPage();
    t.equal((await page.goto(teamUrl))?.status(), 200);
    t.ok(await page.locator('ul.roster li', { hasText: shown }).first().isVisible(), `${level}: the roster shows "${shown}"`);
    const text = await page.locator('main').innerText();
    if (level !== 'full') t.notMatch(text, /Brightwater|Quellenberg|Okonkwo/, `${level}: no family name on the page`);
    await page.screenshot({ path: `${shots}/team-page-${level}-360.png`, fullPage: true });
    await context.close();
    await checkAccessibility(t, browser, teamUrl, `team page (${level})`);
  }

  await w.setTeam(w.u14, { privacy: 'initials', roster: 'shown' });
  for (const width of [360, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(teamUrl);
    t.ok(await page.locator('li.fixture.live .badge.live').isVisible(), `${width} px: the live match is marked live`);
    t.equal(await page.locator('ul[aria-label="next matches"] li').count(), 1, 'one match announced');
    await page.locator('ul[aria-label="results"] a[href="/match/u14-w1"]').click();
    await page.waitForURL(/\/match\/u14-w1$/);
    t.ok(await page.getByText('A. B.').first().isVisible(), `${width} px: the match page it links to names the player by the level too`);
    await page.goto(teamUrl);
    await page.screenshot({ path: `${shots}/team-page-${width}.png`, fullPage: true });
    await page.goto(`${w.base}${w.clubPath}`);
    t.ok(await page.getByRole('link', { name: 'U14 Girls', exact: true }).isVisible(), `${width} px: the club page lists the team`);
    await page.screenshot({ path: `${shots}/club-page-${width}.png`, fullPage: true });
    await context.close();
    t.ok(await noSidewaysScroll(browser, teamUrl, width), `${width} px: the team page does not scroll sideways`);
    t.ok(await noSidewaysScroll(browser, `${w.base}${w.clubPath}`, width), `${width} px: nor the club page`);
  }
  await checkAccessibility(t, browser, `${w.base}${w.clubPath}`, 'club page');
});

browserTest('Teams → Public pages in the dashboard at 360 and 1280 px: the forms, axe clean', async (t) => {
  const w = await publicClubWorld(t);
  await w.setClubPage(true);
  await w.setTeam(w.u14, { privacy: 'initials', roster: 'shown' });
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);
  const storageState = cookieSession(w.admin.jar, new URL(w.base).hostname);
  for (const width of [360, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, storageState });
    const page = await context.newPage();
    t.equal((await page.goto(`${w.base}/dashboard/teams/public`))?.status(), 200);
    t.equal(await page.locator('fieldset', { hasText: 'U14 Girls' }).locator('select[name="privacy"]').inputValue(), 'initials');
    t.ok(await page.locator('fieldset', { hasText: 'U14 Girls' }).locator('input[name="publicPage"]').isChecked(), 'its page is on');
    t.ok((await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true, `${width} px: no sideways scroll`);
    await page.screenshot({ path: `${shots}/dashboard-public-pages-${width}.png`, fullPage: true });
    await context.close();
  }
  await checkAccessibility(t, browser, `${w.base}/dashboard/teams/public`, 'Teams → Public pages', storageState);
});
