import { request } from 'node:http';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { json, startTestApp } from '../helpers/testApp.js';

/** A GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const match = { id: 'lan-match', sport: 'volleyball', homeTeam: { name: 'Herons', setsWon: 2 }, awayTeam: { name: 'Owls', setsWon: 1 } };

/**
 * Links, QR codes and the embed snippet on a page opened by another host name (issue 62): with
 * PUBLIC_BASE_URL unset, the address the page was opened by (a valid Host only); with it set,
 * always PUBLIC_BASE_URL (docs/decisions.md, *Viewers*). At 360 and 1280 px.
 */
browserTest('share links and QR codes name the host a page was opened by when PUBLIC_BASE_URL is unset, else PUBLIC_BASE_URL', async (t) => {
  const browser = await launchChromium(t);
  for (const configured of [false, true]) {
    const { app } = await startTestApp(t, configured ? { PUBLIC_BASE_URL: 'https://scores.example.org' } : { PUBLIC_BASE_URL: '' });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const created = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify(match) });
    t.equal(created.status, 201);
    const expected = configured ? 'https://scores.example.org/match/lan-match' : `${base}/match/lan-match`;
    for (const width of [360, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/match/lan-match`);
      t.equal(await page.locator('.share a').first().getAttribute('href'), expected, `${configured ? 'set' : 'unset'}, ${width} px: the link`);
      t.equal(await page.locator('.share img').getAttribute('alt'), `QR code for ${expected}`, 'the QR code');
      t.match(await page.locator('.share pre code').textContent(), `src="${expected}/embed"`, 'the embed snippet');
      t.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= width, 'no sideways scroll');
      await context.close();
    }
    const other = await getWithHost(`${base}/match/lan-match`, 'Scores.LAN:8080');
    t.match(other.body, configured ? 'https://scores.example.org/match/lan-match' : 'http://scores.lan:8080/match/lan-match', 'another valid host name');
    const qr = await getWithHost(`${base}/match/lan-match/qr.svg`, 'scores.lan:8080');
    t.equal(qr.status, 200);
    if (!configured) {
      const first = await getWithHost(`${base}/match/lan-match/qr.svg`, '10.0.0.7:3000');
      t.not(first.body, qr.body, 'each host gets the QR code of its own address');
    }
    for (const bad of ['evil.example"><script>', 'user@host', 'a b', 'x'.repeat(300)]) {
      const answer = await getWithHost(`${base}/match/lan-match`, bad);
      t.notMatch(answer.body, /evil\.example"|user@host|<script>/, `a Host of ${JSON.stringify(bad.slice(0, 30))} is never echoed`);
      if (answer.status === 200 && !configured)
        t.match(answer.body, 'http://localhost:3000/match/lan-match', 'an invalid Host falls back to the configured default');
    }
  }
});
