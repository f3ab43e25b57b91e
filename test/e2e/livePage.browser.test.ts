import { join } from 'node:path';
import t from 'tap';
import { browserTest, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixtureText } from '../helpers/fixtures.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
import { until } from '../helpers/until.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';

/**
 * Live updates come from the read side: a page open on one API process shows an upload that
 * another API process took, whose projection ran in a separate worker (read models on MongoDB
 * / FerretDB), or in the other process (embedded SQLite, shared files).
 */
for (const engine of ['sqlite', 'mongodb'] as const) {
  const mongoUrl = engine === 'mongodb' ? testMongoUrl(t, 'matchlog_live') : null;
  if (engine === 'mongodb' && mongoUrl === null) {
    t.test('live page across processes on MongoDB', { skip: NO_MONGODB }, async () => {});
    continue;
  }
  browserTest(`a page open on one API process shows a re-upload taken by another (read models on ${engine})`, async (t) => {
    const dataDir = tempDataDir(t);
    const env: Record<string, string> = { DATA_DIR: dataDir, READ_MODEL_URL: mongoUrl ?? `sqlite:${join(dataDir, 'readmodel.sqlite')}` };
    const apis = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    t.teardown(() => {
      for (const api of apis) api.child.kill('SIGKILL');
    });
    if (engine === 'mongodb') {
      const worker = await startWorkerProcess(env);
      t.teardown(() => worker.child.kill('SIGKILL'));
    }
    const [viewer, writer] = [apis[0]!.url, apis[1]!.url];
    const payload = JSON.parse(fixtureText({ sport: 'volleyball', seed: 21, id: 'live-x' })) as {
      homeTeam: { setsWon: number };
      awayTeam: { setsWon: number };
    };
    const put = async (home: number) => {
      const res = await fetch(`${writer}/api/matches/live-x`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ ...payload, homeTeam: { ...payload.homeTeam, setsWon: home } }),
      });
      await res.text();
      return res.status;
    };
    t.equal(await put(payload.homeTeam.setsWon), 200);

    const browser = await launchChromium(t);
    const page = await browser.newPage();
    // The upload went to the other process: wait until this one's read side has it.
    await until(async () => (await fetch(`${viewer}/match/live-x`)).status === 200);
    await page.goto(`${viewer}/match/live-x`);
    // Connected to the live stream (a final match shows no live dot, but updates all the same).
    await page.waitForSelector('.livebar[data-connected]');
    await page.evaluate('window.stayed = true');
    t.equal(await put(7), 200);
    await page.locator('#match-main[data-revision="1"]').waitFor({ timeout: 60_000 });
    t.equal(await page.getByTestId('score').innerText(), `7 : ${payload.awayTeam.setsWon}`, 'the open page shows the new score');
    t.equal(await page.evaluate('window.stayed'), true, 'without a navigation');
  });
}

/**
 * A stream the server refuses (every slot taken: 503, or the address's share: 429) is not retried
 * every 3 s: the page shows its reload link and says updates are paused (issue 33).
 */
for (const [cap, status] of [
  ['MAX_LIVE_STREAMS', 503],
  ['MAX_LIVE_STREAMS_PER_ADDRESS', 429],
] as const) {
  browserTest(`a live stream refused with ${status} (${cap}=0): the page falls back to its reload link`, async (t) => {
    const api = await startServerProcess({ DATA_DIR: tempDataDir(t), [cap]: '0' });
    t.teardown(() => api.child.kill('SIGKILL'));
    const body = fixtureText({ sport: 'volleyball', seed: 22, id: 'refused-x' });
    t.equal((await fetch(`${api.url}/api/matches/refused-x`, { method: 'PUT', headers: json, body })).status, 200);
    const refused = await fetch(`${api.url}/match/refused-x/live`, { headers: { accept: 'text/event-stream' } });
    t.equal(refused.status, status, 'the stream is refused');
    t.equal(refused.headers.get('retry-after'), '30');
    await refused.text();

    const browser = await launchChromium(t);
    const shots = screenshotDir(t);
    for (const width of [360, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const streams: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/live')) streams.push(response.status());
      });
      await page.goto(`${api.url}/match/refused-x`);
      const reload = page.locator('.livebar .reload');
      await reload.waitFor({ state: 'visible' });
      await page.getByText('Live updates paused').waitFor();
      t.equal(await reload.getAttribute('href'), '/match/refused-x', `${width} px: the reload link is shown`);
      t.equal(await page.locator('.livebar[data-connected]').count(), 0, `${width} px: not shown as connected`);
      await page.screenshot({ path: join(shots, `live-refused-${status}-${width}.png`), fullPage: false });
      // The page asks again only after 15 s or more (30 s, jittered), not every 3 s as EventSource would.
      await new Promise((r) => setTimeout(r, 4000));
      t.same(streams, [status], `${width} px: one refused request, no retry within 4 s`);
      await page.close();
    }
  });
}

/** A match erased while its page is open: the stream says so, the page hides the match and stops listening (issue 58). */
browserTest('a match erased while its page is open: the page hides it and says it is no longer available', async (t) => {
  const api = await startServerProcess({ DATA_DIR: tempDataDir(t) });
  t.teardown(() => api.child.kill('SIGKILL'));
  const token = 'erase-while-open-0123456789';
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);
  for (const width of [360, 1280]) {
    const id = `erased-open-${width}`;
    const body = fixtureText({ sport: 'volleyball', seed: 23, id });
    t.equal((await fetch(`${api.url}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': token }, body })).status, 201);
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${api.url}/match/${id}`);
    await page.locator('.livebar[data-connected]').waitFor();
    t.equal((await fetch(`${api.url}/api/matches/${id}`, { method: 'DELETE', headers: { 'x-write-token': token } })).status, 200);
    await page.getByText('This match is no longer available.').waitFor();
    t.equal(await page.locator('#match-main').isHidden(), true, `${width} px: the match is hidden`);
    t.equal(await page.locator('.livebar .reload').isVisible(), true, `${width} px: the reload link is shown`);
    t.equal(await page.locator('.livebar[data-connected]').count(), 0, `${width} px: not shown as connected`);
    await page.screenshot({ path: join(shots, `live-erased-${width}.png`), fullPage: false });
    await page.close();
  }
});
