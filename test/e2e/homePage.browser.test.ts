import { browserTest, checkAccessibility, launchChromium } from '../helpers/browser.js';
import { json, startTestApp } from '../helpers/testApp.js';

/** `GET /` is a home page for people (issue 62): find a match or a club, links to the dashboard and docs; /docs stays the API console. */
browserTest('the home page: find a match by id or link, a club, the docs; at 360 and 1280 px', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  const created = await fetch(`${base}/api/matches`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ id: 'cup-final-2026', sport: 'volleyball', homeTeam: { name: 'Herons', setsWon: 3 }, awayTeam: { name: 'Owls', setsWon: 1 } }),
  });
  t.equal(created.status, 201);

  const bare = await fetch(`${base}/`, { redirect: 'manual' });
  t.equal(bare.status, 200, 'GET / answers a page, not a redirect to the API console');
  t.match(bare.headers.get('content-type'), /^text\/html/);
  t.match(await bare.text(), /Find a match/);
  const docs = await fetch(`${base}/docs`, { redirect: 'follow' });
  t.equal(docs.status, 200, '/docs is still there for developers');
  t.match(await docs.text(), /swagger|openapi|scalar/i, 'the API console');

  for (const width of [360, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    t.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= width, `at ${width} px: no sideways scroll`);
    t.ok(await page.getByRole('link', { name: 'API and upload format' }).isVisible(), 'the docs are linked');
    t.ok(await page.getByRole('link', { name: 'Club dashboard' }).isVisible(), 'so is the dashboard');

    // A shared link pasted whole finds its match.
    await page.getByLabel('Match id or link').fill('https://scores.example.org/match/cup-final-2026?revision=2');
    await page.getByLabel('Match id or link').press('Enter');
    await page.waitForURL(`${base}/match/cup-final-2026`);
    t.equal(await page.getByTestId('score').innerText(), '3 : 1', `at ${width} px a pasted link opens its match`);

    await page.goto(`${base}/`);
    await page.getByLabel('Match id or link').fill('  cup-final-2026 ');
    await page.getByRole('button', { name: 'Open' }).first().click();
    await page.waitForURL(`${base}/match/cup-final-2026`);
    t.pass('a typed id (spaces trimmed) opens its match');

    // Something that is no id: 400, the page says what to type, the text kept.
    await page.goto(`${base}/`);
    await page.getByLabel('Match id or link').fill('no such thing!');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().includes('/find?')), page.getByLabel('Match id or link').press('Enter')]);
    t.equal(answer.status(), 400, 'refused with 400');
    t.match(await page.getByRole('alert').innerText(), /not a match id or link: a match id is 1-128 characters/, 'saying what a match id is');
    t.equal(await page.getByLabel('Match id or link').inputValue(), 'no such thing!', 'what was typed is kept to correct');
    t.equal(await page.getByLabel('Match id or link').getAttribute('aria-invalid'), 'true');

    await page.goto(`${base}/`);
    await page.getByLabel('Club address or link').fill('https://scores.example.org/c/Hillcrest-VC/u18');
    const [club] = await Promise.all([page.waitForResponse((r) => r.url().includes('/find?')), page.getByLabel('Club address or link').press('Enter')]);
    t.equal(club.status(), 303, 'a club link goes to its page');
    t.equal(club.headers().location, '/c/hillcrest-vc');
    await context.close();
  }
  const refused = await fetch(`${base}/find?club=${encodeURIComponent('<script>')}`);
  t.equal(refused.status, 400);
  t.notMatch(await refused.text(), /<script>/, 'what was typed is escaped');
  await checkAccessibility(t, browser, `${base}/`, 'home page');
  await checkAccessibility(t, browser, `${base}/find?match=${encodeURIComponent('bad id!')}`, 'home page with a refusal');
});
