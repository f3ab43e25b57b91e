import t from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

const quiet = { out: () => {}, err: () => {}, readStdin: async () => '' };

t.test('after rebuild --start-over transparencyLog the server answers the larger checkpoint it signed and is not ready until the tree is back', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await startTestApp(t, { DATA_DIR: dataDir });
  for (const id of ['a', 'b', 'c'])
    t.equal(
      (await first.app.inject({ method: 'POST', url: '/api/matches', payload: fixtureText({ seed: 4, id }), headers: { 'content-type': 'application/json' } }))
        .statusCode,
      201,
    );
  const signed = (await first.app.inject({ url: '/api/log/checkpoint' })).body;
  t.match(signed, /^matchlog\.test\/log\n3\n/);
  await first.close();

  t.equal(await runCli(['rebuild', '--start-over', 'transparencyLog'], { ...quiet, env: { DATA_DIR: dataDir } }), 0);

  // No projection runs here: the tree stays empty, as behind a lagging worker.
  const behind = await startTestApp(t, { DATA_DIR: dataDir, RUN_PROJECTIONS: 'no' });
  t.equal((await behind.app.inject({ url: '/api/log/checkpoint' })).body, signed, 'the checkpoint signed before, not a tree of 0');
  const ready = await behind.app.inject({ url: '/readyz' });
  t.equal(ready.statusCode, 503);
  t.match(ready.json(), { status: 'catching up', reason: /the transparency log's tree has 0 entries, fewer than the 3 its key signed/ });
  await behind.close();

  const caughtUp = await startTestApp(t, { DATA_DIR: dataDir });
  for (let tries = 0; (await caughtUp.app.inject({ url: '/readyz' })).statusCode !== 200; tries += 1) {
    if (tries > 200) throw new Error('never ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal((await caughtUp.app.inject({ url: '/api/log/checkpoint' })).body, signed, 'the same tree, regrown');
});
