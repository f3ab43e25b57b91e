import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { openReadModel } from '../../src/readmodel/openReadModel.js';
import { CheckpointMovedError } from '../../src/readmodel/readModel.js';
import { clubDashboardProjection } from '../../projections/clubDashboard.js';
import { publicViewProjection } from '../../projections/publicView.js';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';

/**
 * docs/operations.md's rebuild and "start over", done as an operator would beside a running
 * system while club-synced uploads go on, each ending with `matchlog verify` clean: every read
 * model exactly what the log says. On SQLite with a projection worker process; on a
 * MongoDB-wire server (FerretDB in CI) with the projections in the API process, where a
 * promote used to race the live projection ("target namespace exists").
 */
for (const engine of ['sqlite', 'mongodb'] as const) {
  const mongoUrl = engine === 'mongodb' ? testMongoUrl(t, 'matchlog_rebuild') : null;
  const skip = engine === 'mongodb' && mongoUrl === null ? NO_MONGODB : false;
  t.test(`rebuild and start over beside a running system on ${engine}`, { skip }, async (t) => {
    const dataDir = tempDataDir(t);
    const readModelUrl = mongoUrl ?? `sqlite:${join(dataDir, 'readmodel.sqlite')}`;
    const env = { DATA_DIR: dataDir, READ_MODEL_URL: readModelUrl, READ_YOUR_WRITES_TIMEOUT_MS: '3000' };
    const api = await startServerProcess({ ...env, RUN_PROJECTIONS: engine === 'sqlite' ? 'no' : 'yes', WRITE_RATE_LIMIT: 'off' });
    t.teardown(() => api.child.kill('SIGKILL'));
    let worker = engine === 'sqlite' ? await startWorkerProcess(env) : null;
    t.teardown(() => worker?.child.kill('SIGKILL'));

    const created: string[] = [];
    const cli = { out: (text: string) => created.push(text), err: () => {}, env: { ...env, MATCHLOG_ADMIN_PASSWORD: 'correct horse battery staple' } };
    t.equal(
      await runCli(['club-create', '--name', 'Lakeside VC', '--email', 'admin@lakeside.example', '--team', 'U18 Men', '--app-key', '--json'], cli),
      0,
      'club created',
    );
    const club = JSON.parse(created.join('')) as { clubId: string; teams: { teamId: string }[]; appKey: { key: string } };
    const template = JSON.parse(fixtureText({ seed: 7, actions: 20, club: club.clubId, team: club.teams[0]?.teamId ?? '' })) as Record<string, unknown>;
    let uploads = 0;
    const upload = async (id: string, version: number) => {
      const res = await fetch(version === 0 ? `${api.url}/api/matches` : `${api.url}/api/matches/${id}`, {
        method: version === 0 ? 'POST' : 'PUT',
        headers: { ...json, 'x-write-token': `token-${id}-0123456789abcdef`, 'x-app-key': club.appKey.key },
        body: JSON.stringify({ ...template, id, version, homeTeam: { name: 'Lakeside VC', setsWon: version % 4 }, awayTeam: { name: 'Owls', setsWon: 1 } }),
      });
      await res.arrayBuffer();
      if (!res.ok) t.fail(`${id} v${version}: ${res.status}`);
      uploads += 1;
    };
    for (let i = 0; i < 6; i += 1) await upload(`m-${i}`, 0);
    await waitUntilReady(api.url, 60_000);

    /** Uploads (new matches and new versions of earlier ones) until `stop` resolves. */
    const writeUntil = async (stop: Promise<unknown>, prefix: string) => {
      let done = false;
      void stop.finally(() => (done = true));
      for (let i = 0; !done; i += 1) await upload(i % 2 === 0 ? `${prefix}-${i}` : `m-${i % 6}`, i % 2 === 0 ? 0 : 1 + i);
    };
    const verify = async (t: Test, what: string) => {
      await waitUntilReady(api.url, 120_000).catch(async (error: unknown) => {
        // What the projections said meanwhile, so a stall seen once can be told apart next time.
        const readiness = await fetch(`${api.url}/readyz`).then((res) => res.text(), String);
        t.comment(`${what}: not ready; /readyz: ${readiness}\nworker's last lines:\n${(worker?.output ?? api.output).slice(-40).join('\n')}`);
        throw error;
      });
      const { code, stdout, stderr } = await runMatchlog(['verify'], env);
      t.equal(code, 0, `${what}: matchlog verify is clean\n${stdout}${stderr}`);
      t.match(stdout, /every read model is exactly what the log says/);
    };

    /**
     * Puts a document no event made into the live collections of the projections about to be
     * switched, leaving their checkpoints where they are: once the switch is made it is in no
     * live collection, so if a worker silently undid the switch (issue 58, N4), verify finds it.
     */
    const plantBeforeSwitch = async (which: string | undefined) => {
      const store = await openReadModel(readModelUrl);
      try {
        for (const projection of which === 'clubDashboard' ? [clubDashboardProjection] : [publicViewProjection, clubDashboardProjection]) {
          for (;;) {
            const at = await store.getCheckpoint(projection.name);
            if (at === null) break;
            const id = `planted-before-switch-${planted++}`;
            const change = { collection: projection.collections[0] ?? '', id, doc: { id }, position: at };
            try {
              await store.commit(projection.name, [change], at, at);
              break;
            } catch (error) {
              if (!(error instanceof CheckpointMovedError)) throw error;
            }
          }
        }
      } finally {
        await store.close();
      }
    };
    let planted = 0;

    await t.test('matchlog rebuild while uploads go on', async (t) => {
      for (const args of [['rebuild', 'clubDashboard'], ['rebuild'], ['rebuild', 'clubDashboard']]) {
        await plantBeforeSwitch(args[1]);
        const before = uploads;
        const rebuilding = runMatchlog(args, env);
        await writeUntil(rebuilding, `r${args.length}`);
        const { code, stdout, stderr } = await rebuilding;
        t.equal(code, 0, `matchlog ${args.join(' ')} (${uploads - before} uploads meanwhile): ${stdout}${stderr}`);
      }
      await verify(t, 'after the rebuilds');
    });

    await t.test('matchlog rebuild --start-over while uploads go on', async (t) => {
      await plantBeforeSwitch(undefined);
      const startingOver = runMatchlog(['rebuild', '--start-over', 'clubDashboard'], env).then(async (first) => [
        first,
        await runMatchlog(['rebuild', '--start-over'], env),
      ]);
      await writeUntil(startingOver, 's');
      for (const { code, stdout, stderr } of await startingOver) {
        t.equal(code, 0, stderr);
        t.match(stdout, /started \w+ over: its read model is empty/);
      }
      await verify(t, 'after starting over');
    });

    await t.test('matchlog rebuild --start-over on a quiet system: the running projections replay the log without another upload', async (t) => {
      const { code, stderr } = await runMatchlog(['rebuild', '--start-over'], env);
      t.equal(code, 0, stderr);
      await verify(t, 'after starting over with no upload after it');
    });

    if (worker !== null) {
      await t.test('a worker restarted with one projection started over (as a projection added to a running system)', async (t) => {
        worker?.child.kill('SIGTERM');
        await worker?.exited;
        const { code } = await runMatchlog(['rebuild', '--start-over', 'syncStatus'], env);
        t.equal(code, 0);
        worker = await startWorkerProcess(env);
        await writeUntil(new Promise((resolve) => setTimeout(resolve, 1500)), 'a');
        await verify(t, 'after the restart');
      });
    }
  });
}
