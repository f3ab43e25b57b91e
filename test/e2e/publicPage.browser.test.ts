import { browserTest, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

browserTest('the public page in Chromium: teams, score, stats; hostile payloads do not run', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  const match = fixture({ seed: 7, id: 'browser-vb' }) as {
    homeTeam: { name: string; setsWon: number };
    awayTeam: { name: string; setsWon: number };
    playerStats: { name: string }[];
    actions: unknown[];
  };
  const upload = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify(match) });
  t.equal(upload.status, 201);
  const { url } = (await upload.json()) as { url: string };
  t.equal(url, 'http://matchlog.test/match/browser-vb', 'the url uses PUBLIC_BASE_URL');

  const response = await page.goto(`${base}/match/browser-vb`);
  t.equal(response?.status(), 200);
  t.equal(await page.title(), `${match.homeTeam.name} vs ${match.awayTeam.name} · matchlog`);
  t.equal(await page.locator('h1').innerText(), `${match.homeTeam.name} vs ${match.awayTeam.name}`);
  t.equal(await page.getByTestId('score').innerText(), `${match.homeTeam.setsWon} : ${match.awayTeam.setsWon}`);
  t.equal(await page.locator('table.line-score tbody tr').count(), 2, 'score by set, one row per team');
  t.ok(await page.getByRole('cell', { name: match.playerStats[0]!.name, exact: true }).first().isVisible(), 'player stats table');
  await page.setViewportSize({ width: 1100, height: 1000 });
  await page.screenshot({ path: `${screenshotDir(t)}/public-match-page.png` });
  await page.getByText(`${match.actions.length} actions`).click();
  t.ok(await page.locator('details.play-by-play tbody tr').first().isVisible(), 'play-by-play opens');

  const hostile = {
    id: 'browser-xss',
    homeTeam: { name: '<script>alert("home")</script>', setsWon: 1 },
    awayTeam: { name: '<img src=x onerror=alert("away")>', setsWon: 0 },
    venue: '</style><script>alert("venue")</script>',
    playerStats: [{ name: '<svg onload=alert("player")>', stats: { kills: 1 } }],
    actions: [{ skill: '<iframe src=javascript:alert("action")>', team: '"><script>alert(1)</script>' }],
  };
  await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify(hostile) });
  await page.goto(`${base}/match/browser-xss`);
  await page.getByText('1 actions').click();
  await page.waitForTimeout(300);
  t.same(dialogs, [], 'no script from the payload ran');
  t.equal(await page.locator('script, img, svg, iframe').count(), 0, 'no element was injected');
  t.equal(await page.getByTestId('score').innerText(), '1 : 0');
  t.match(await page.locator('h1').innerText(), /<script>alert\("home"\)<\/script>/, 'the text is shown as text');
  t.same(consoleErrors, [], `no console errors: ${consoleErrors.join(' | ')}`);
});
