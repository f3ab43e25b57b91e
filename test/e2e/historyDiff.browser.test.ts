import { join } from 'node:path';
import { browserTest, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

browserTest('the history page says what changed: status from → to, and which action was edited (360 and 1280 px)', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const put = async (body: object) => (await fetch(`${base}/api/matches/audited`, { method: 'PUT', headers: json, body: JSON.stringify(body) })).status;
  const match = fixture({ seed: 11, id: 'audited' }) as Record<string, unknown> & { actions: Record<string, unknown>[] };
  t.equal(await put({ ...match, status: 'live', venue: 'Sporthalle Nord' }), 200);
  const corrected = match.actions.map((action, i) => (i === 2 ? { ...action, evaluation: action.evaluation === '#' ? '=' : '#' } : action));
  t.equal(await put({ ...match, actions: corrected, status: 'final', venue: 'Sporthalle Nord' }), 200);

  const browser = await launchChromium(t);
  const shots = screenshotDir(t);
  for (const width of [360, 1280]) {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await page.goto(`${base}/match/audited/history`);
    const changes = page.locator('ol.timeline ul.changes').filter({ hasText: 'status' });
    const items = await changes.locator('li').allInnerTexts();
    t.ok(items.includes('status “live” → “final”'), `status from → to at ${width} px: ${items.join(' | ')}`);
    t.ok(items.includes('1 action edited (actions[2])'), `the edited action named at ${width} px`);
    const box = await changes.boundingBox();
    t.ok(box !== null && box.x >= 0 && box.x + box.width <= width, `on screen at ${width} px`);
    t.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= width, `no sideways scroll at ${width} px`);
    await page.screenshot({ path: join(shots, `history-diff-${width}.png`), fullPage: true });
    await page.context().close();
  }
});
