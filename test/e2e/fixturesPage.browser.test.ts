import { browserTest, checkAccessibility, launchChromium, screenshotDir, cookieSession } from '../helpers/browser.js';
import { publicClubWorld } from '../helpers/publicClub.js';

const CSV = [
  'date,time,opponent,venue,home_away,match_id',
  '2026-12-19,09:30,Harbour Hawks,"Harbour Gym, court 2",away,',
  '2027-01-09,14:00,Northside Owls,Lakeside Hall,home,u14-owls',
].join('\n');

browserTest('Teams → a team → Fixtures at 360 and 1280 px: the form posted from the browser in its own zone, a CSV import, axe clean', async (t) => {
  const w = await publicClubWorld(t);
  await w.setClubPage(true);
  await w.setTeam(w.u14, { privacy: 'initials' });
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);
  const storageState = cookieSession(w.admin.jar, new URL(w.base).hostname);
  const fixturesUrl = `${w.base}/dashboard/teams/${w.u14}/fixtures`;

  // The browser's zone fills the form's time zone; the admin types the rest and announces.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState, timezoneId: 'Europe/Amsterdam' });
  const page = await context.newPage();
  t.equal((await page.goto(fixturesUrl))?.status(), 200);
  const form = page.locator('form[action$="/fixtures"]');
  t.equal(await form.locator('input[name="timeZone"]').inputValue(), 'Europe/Amsterdam', 'the time zone is the browser’s own');
  await form.getByLabel('Opponent').fill('Riverside Rockets U14');
  await form.getByLabel('Date').fill('2026-12-12');
  await form.getByLabel('Start time').fill('10:00');
  await form.getByLabel('Venue').fill('Lakeside Hall');
  await form.getByRole('button', { name: 'Announce' }).click();
  await page.waitForURL(/done=announced/);
  t.match(await page.locator('[role="status"]').textContent(), /Fixture announced/);
  t.match(await page.locator('table.fixtures').textContent(), /2026-12-12 10:00 \(Europe\/Amsterdam\)/);
  await context.close();

  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  t.equal((await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/import`, { csv: CSV, timeZone: 'Europe/Amsterdam' })).statusCode, 303);

  for (const width of [360, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, storageState });
    const p = await ctx.newPage();
    t.equal((await p.goto(fixturesUrl))?.status(), 200);
    t.equal(await p.locator('table.fixtures tbody tr').count(), 3);
    t.ok((await p.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true, `${width} px: no sideways scroll`);
    await p.screenshot({ path: `${shots}/dashboard-fixtures-${width}.png`, fullPage: true });
    t.equal((await p.goto(`${w.base}${w.clubPath}/u14-girls`))?.status(), 200);
    t.equal(await p.locator('ul[aria-label="next matches"] li').count(), 3, 'the team page lists the three fixtures');
    t.ok((await p.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true, `${width} px: team page, no sideways scroll`);
    await p.screenshot({ path: `${shots}/team-page-fixtures-${width}.png`, fullPage: true });
    await ctx.close();
  }
  await checkAccessibility(t, browser, fixturesUrl, 'Teams → Fixtures', storageState);
  await checkAccessibility(t, browser, `${w.base}${w.clubPath}/u14-girls`, 'team page with fixtures');
});
