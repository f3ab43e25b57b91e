import { browserTest, checkAccessibility, launchChromium } from '../helpers/browser.js';
import { longNames, manyActions, wideBoxScore } from '../helpers/hostileRenders.js';
import { json, startTestApp } from '../helpers/testApp.js';

browserTest('capped pages in Chromium: no sideways scroll of the page at 360 px, notices and pages of plays pass axe', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  for (const [id, payload] of [
    ['wide', wideBoxScore()],
    ['long', manyActions(3_000)],
    ['names', longNames(5_000)],
  ] as const) {
    t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id, ...payload }) })).status, 201);
  }
  const pages = ['/match/wide', '/match/long', '/match/long?part=plays&page=2', '/match/names', '/match/names/embed'];
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  for (const path of pages) {
    t.equal((await page.goto(`${base}${path}`))?.status(), 200, path);
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    t.ok(width <= 360, `${path}: the page is ${width} px wide at 360 (wide tables scroll inside their box)`);
  }
  await page.goto(`${base}/match/long`);
  await page.getByRole('link', { name: 'Older plays →' }).click();
  t.match(page.url(), /\?part=plays&page=2$/, 'the link to older plays works without script');
  await context.close();
  for (const path of ['/match/wide', '/match/long?part=plays&page=2', '/match/names']) await checkAccessibility(t, browser, `${base}${path}`, path);
});
