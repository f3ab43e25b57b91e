import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { browserTest, checkAccessibility, launchChromium, screenshotDir, cookieSession } from '../helpers/browser.js';
import { startTestApp } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

/** The pages of Connect → Webhooks and of an erasure, each at a phone's and a laptop's width. */
browserTest('the webhook pages and the erasure confirm page at 360 and 1280 px: no sideways scroll, axe clean; screenshots', async (t) => {
  const s = await startTestApp(t, { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001' });
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await clubWithAppKey(base);
  const receiver = await startWebhookReceiver(t);
  const endpoint = await club.addEndpoint(receiver.url, ['match.synced', 'match.changed', 'match.final', 'sync.flagged']);
  receiver.state.secrets = [endpoint.secret];
  // The first attempt of each fails once, so the log shows a retried delivery beside delivered ones.
  receiver.state.answer = ({ count }) => (count === 0 ? 503 : 200);
  await club.upload('browser-1');
  await club.upload('browser-1', { version: 2, status: 'final' });
  await club.upload('browser-2', { withKey: false });
  await eventually('three delivered', () => receiver.acknowledged().size === 3);
  await club.addEndpoint('https://hooks.lakeside.example/matchlog', ['match.final']);

  const browser: Browser = await launchChromium(t);
  const session = cookieSession(club.jar, '127.0.0.1');
  const dir = screenshotDir(t);
  const pages = [
    { name: 'dashboard-webhooks', path: '/dashboard/connect/webhooks' },
    { name: 'dashboard-webhook-deliveries', path: `/dashboard/connect/webhooks/${endpoint.endpointId}` },
    { name: 'dashboard-erase-match', path: '/dashboard/matches/browser-1/erase' },
  ];
  for (const { name, path } of pages) {
    for (const width of [360, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, storageState: session });
      const page = await context.newPage();
      const res = await page.goto(`${base}${path}`);
      t.equal(res?.status(), 200, `${path} at ${width} px`);
      t.equal(await page.evaluate('document.documentElement.scrollWidth'), width, `${name} at ${width} px: the page does not scroll sideways`);
      await page.screenshot({ path: join(dir, `${name}${width === 360 ? '' : '-1280'}.png`), fullPage: true });
      await context.close();
    }
    await checkAccessibility(t, browser, `${base}${path}`, name, session);
  }

  // The secret, shown once: the answer to the form, in the browser as an admin sees it.
  for (const width of [360, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, storageState: session });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/connect/webhooks/${endpoint.endpointId}`);
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    t.match(secret, /^whsec_/, `the new secret shown at ${width} px`);
    t.equal(await page.evaluate('document.documentElement.scrollWidth'), width, `the secret page at ${width} px does not scroll sideways`);
    await page.screenshot({ path: join(dir, `dashboard-webhook-secret${width === 360 ? '' : '-1280'}.png`), fullPage: true });
    await context.close();
  }
});
