import { join } from 'node:path';
import t from 'tap';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { fixtureText } from '../helpers/fixtures.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
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
    for (let i = 0; i < 100 && (await fetch(`${viewer}/match/live-x`)).status !== 200; i += 1) await new Promise((r) => setTimeout(r, 100));
    await page.goto(`${viewer}/match/live-x`);
    // Connected to the live stream (a final match shows no live dot, but updates all the same).
    await page.waitForSelector('.livebar[data-connected]');
    await page.evaluate('window.stayed = true');
    t.equal(await put(7), 200);
    await page.locator('#match-main[data-revision="1"]').waitFor({ timeout: 10_000 });
    t.equal(await page.getByTestId('score').innerText(), `7 : ${payload.awayTeam.setsWon}`, 'the open page shows the new score');
    t.equal(await page.evaluate('window.stayed'), true, 'without a navigation');
  });
}
