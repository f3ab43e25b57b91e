import { createServer } from 'node:net';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { json, startTestApp } from '../helpers/testApp.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

browserTest('the home page links to /docs, whose "Try it out" on GET /api/matches/{id} answers 200 (CSP connect-src names the base URL)', async (t) => {
  const port = await freePort();
  // The page is opened as 127.0.0.1 while PUBLIC_BASE_URL names localhost: "Try it out" calls another origin.
  const { app } = await startTestApp(t, { PUBLIC_BASE_URL: `http://localhost:${port}` });
  await app.listen({ host: '127.0.0.1', port });
  const base = `http://127.0.0.1:${port}`;
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"docs-demo","homeTeam":{"name":"Herons"}}' })).status, 201);
  const csp = (await fetch(`${base}/docs/static/index.html`)).headers.get('content-security-policy') ?? '';
  t.match(csp, new RegExp(`connect-src 'self' http://localhost:${port}`), 'the docs page may call the server it documents');
  t.notMatch(csp, /upgrade-insecure-requests/, 'and calls it over the scheme it names');

  const browser = await launchChromium(t);
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  // GET / is the home page for people (issue 62); developers follow its link to the console.
  await page.goto(`${base}/`);
  await page.locator('a[href="/docs"]').first().click();
  await page.waitForURL(/\/docs/);
  t.match(new URL(page.url()).pathname, /^\/docs/, 'the home page leads to the docs');
  const operation = page.locator('#operations-matches-getMatch');
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await operation.locator('input[placeholder="id"]').fill('docs-demo');
  await operation.getByRole('button', { name: 'Execute' }).click();
  const status = operation.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 60_000 });
  const live = await operation.locator('.live-responses-table').first().innerText();
  t.equal((await status.innerText()).trim(), '200', `Try it out answers 200: ${live.slice(0, 300)}`);
  t.match(await operation.locator('.live-responses-table tbody .response-col_description').first().innerText(), /"docs-demo"/, 'with the match');
  t.same(violations, [], 'no CSP violation on the page');
});
