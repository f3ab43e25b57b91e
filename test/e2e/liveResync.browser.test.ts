import type { Browser, Page } from 'playwright-core';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { json, startTestApp } from '../helpers/testApp.js';

/**
 * The live page catches up by itself (issue 62): a failed update is retried, a phone back online
 * re-syncs at once, a tab shown again re-syncs, and an offline phone is told it is offline (not
 * that the server is busy). At 360 and 1280 px.
 */

const match = (home: number) => ({
  sport: 'volleyball',
  status: 'live',
  startedAt: new Date().toISOString(),
  homeTeam: { name: 'Hillcrest Herons', setsWon: home },
  awayTeam: { name: 'Stonebridge Owls', setsWon: 1 },
});

async function livePage(browser: Browser, url: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 700 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('.livebar[data-connected]', { timeout: 30_000 });
  return page;
}

const barText = (page: Page) => page.locator('.livebar .live-state').innerText();
const score = (page: Page) => page.getByTestId('score').innerText();

browserTest('the live page re-syncs after failures, offline spells and hidden tabs (issue 62)', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  let sets = 0;
  const put = async (id: string) => {
    sets += 1;
    const res = await fetch(`${base}/api/matches/${id}`, { method: 'PUT', headers: json, body: JSON.stringify(match(sets)) });
    await res.text();
    return res.status;
  };
  /** The revision a page shows, and a wait for the next one. */
  const shown = async (page: Page) => Number(await page.locator('#match-main').getAttribute('data-revision'));
  const nextShown = (page: Page, before: number) => page.locator(`#match-main[data-revision="${before + 1}"]`).waitFor({ timeout: 30_000 });

  for (const width of [360, 1280]) {
    const id = `resync-${width}`;

    t.test(`${width} px: a failed update is retried until it lands, the reload link showing meanwhile`, async (t) => {
      t.equal(await put(id), 200, 'created');
      const page = await livePage(browser, `${base}/match/${id}`, width);
      const before = await shown(page);
      let refused = 0;
      await page.route(`**/match/${id}?part=main`, (route) => {
        if (refused < 1) {
          refused += 1;
          return route.abort('connectionfailed');
        }
        return route.continue();
      });
      t.equal(await put(id), 200);
      await page.locator('.livebar .live-state', { hasText: 'Could not load the update; trying again' }).waitFor({ timeout: 30_000 });
      t.ok(await page.locator('.livebar .reload').isVisible(), 'the reload link shows while it failed');
      await nextShown(page, before);
      t.equal(await score(page), `${sets} : 1`, 'the retry brought the new score, with no other change');
      t.notMatch(await barText(page), /Could not load/, 'and the bar no longer says it failed');
      await page.context().close();
    });

    t.test(`${width} px: offline says offline; back online it catches up at once`, async (t) => {
      const page = await livePage(browser, `${base}/match/${id}`, width);
      const before = await shown(page);
      await page.context().setOffline(true);
      await page.locator('.livebar .live-state', { hasText: 'Offline' }).waitFor({ timeout: 30_000 });
      t.ok(await page.locator('.livebar .reload').isVisible(), 'the reload link shows');
      t.equal(await put(id), 200);
      // Long enough for several failed reconnects: the bar must not blame the server.
      for (let i = 0; i < 20; i += 1) {
        t.notMatch(await barText(page), /server is busy/, 'never "the server is busy" while offline');
        if (i < 19) await page.waitForTimeout(250);
      }
      const started = Date.now();
      await page.context().setOffline(false);
      await nextShown(page, before);
      t.comment(`caught up ${Date.now() - started} ms after coming back online`);
      t.equal(await score(page), `${sets} : 1`, 'the new score, without waiting for the next change');
      await page.waitForSelector('.livebar[data-connected]', { timeout: 30_000 });
      t.match(await barText(page), /^\s*Live/, 'and live again');
      await page.context().close();
    });

    t.test(`${width} px: a tab shown again re-syncs, even when the stream missed the change`, async (t) => {
      const page = await livePage(browser, `${base}/match/${id}`, width);
      const before = await shown(page);
      // The stream hears nothing more: stop it, as a phone's browser does for a background tab.
      await page.route(`**/match/${id}/live`, (route) => route.abort('connectionfailed'));
      await page.evaluate('window.stop()');
      t.equal(await put(id), 200);
      await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
      await nextShown(page, before);
      t.equal(await score(page), `${sets} : 1`, 'the change shows when the tab is visible again');
      await page.context().close();
    });
  }
});
