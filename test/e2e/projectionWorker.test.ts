import { join } from 'node:path';
import t from 'tap';
import { allProjections } from '../../projections/all.js';
import { rebuildProjection } from '../../projections/replay.js';
import { runCli } from '../../src/cli/commands.js';
import { runProjection } from '../../projections/runner.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { fixtureText } from '../helpers/fixtures.js';
import { NO_MONGODB, servesFerretDb, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
import { until } from '../helpers/until.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';

const quiet = { info: () => {}, error: () => {} };

/**
 * Projections in worker processes, for real: the API process runs none of its own
 * (RUN_PROJECTIONS=no, or auto on MongoDB), two workers run at once (one at a time on FerretDB, see below), both are killed with
 * SIGKILL while writes go on, a new one starts, and every read model ends up exactly what a
 * replay of the log gives. On SQLite read models always; on a MongoDB-wire server (FerretDB
 * in CI) when MONGODB_URL is set.
 */
for (const engine of ['sqlite', 'mongodb'] as const) {
  const mongoUrl = engine === 'mongodb' ? testMongoUrl(t, 'matchlog_e2e') : null;
  const skip = engine === 'mongodb' && mongoUrl === null ? NO_MONGODB : false;
  t.test(`projection workers on ${engine}: duplicated, killed mid-run, restarted; read models correct`, { skip }, async (t) => {
    const dataDir = tempDataDir(t);
    const readModelUrl = mongoUrl ?? `sqlite:${join(dataDir, 'readmodel.sqlite')}`;
    const env = { DATA_DIR: dataDir, READ_MODEL_URL: readModelUrl, RUN_PROJECTIONS: 'no', READ_YOUR_WRITES_TIMEOUT_MS: '3000' };
    const api = await startServerProcess(env);
    t.teardown(() => api.child.kill('SIGKILL'));
    // docs/operations.md: duplicate workers are safe on MongoDB, not on FerretDB 1.x, whose guarded
    // writes are not atomic (a racing pair can leave a counter one short); there one runs at a time.
    const duplicates = mongoUrl === null || !(await servesFerretDb(mongoUrl));
    if (!duplicates) t.comment('FerretDB: one worker at a time (its conditional writes are not atomic); the second starts when the first is killed');
    const workers = [await startWorkerProcess(env)];
    if (duplicates) workers.push(await startWorkerProcess(env));
    t.teardown(() => {
      for (const worker of workers) worker.child.kill('SIGKILL');
    });
    t.notOk(
      api.output.some((line) => line.includes('running from its stored checkpoint')),
      'the API runs no projections of its own',
    );

    // A club with an app key, so the club dashboard and sync status projections have work too.
    const created: string[] = [];
    const cli = {
      out: (text: string) => created.push(text),
      err: () => {},
      env: { DATA_DIR: dataDir, MATCHLOG_ADMIN_PASSWORD: 'correct horse battery staple' },
    };
    t.equal(
      await runCli(['club-create', '--name', 'Lakeside VC', '--email', 'admin@lakeside.example', '--team', 'U18 Men', '--app-key', '--json'], cli),
      0,
      'club created',
    );
    const club = JSON.parse(created.join('')) as { clubId: string; teams: { teamId: string }[]; appKey: { key: string } };
    const template = JSON.parse(fixtureText({ seed: 41, club: club.clubId, team: club.teams[0]?.teamId ?? '' })) as Record<string, unknown>;
    const token = (id: string) => `token-${id}-0123456789abcdef`;
    /** The version of each match the last 2xx acknowledged. */
    const acknowledged = new Map<string, number>();
    let staleReads = 0;
    const write = async (id: string, version: number, checkRead: boolean) => {
      const res = await fetch(version === 0 ? `${api.url}/api/matches` : `${api.url}/api/matches/${id}`, {
        method: version === 0 ? 'POST' : 'PUT',
        headers: { ...json, 'x-write-token': token(id), 'x-app-key': club.appKey.key },
        body: JSON.stringify({ ...template, id, version }),
      });
      t.ok(res.ok, `${id} v${version} stored (${res.status})`);
      acknowledged.set(id, version);
      if (!checkRead) return;
      const view = (await (await fetch(`${api.url}/api/matches/${id}`)).json()) as { payload?: { version?: number } };
      if (view.payload?.version !== version) {
        staleReads += 1;
        t.comment(`stale read: ${id} v${version} showed ${String(view.payload?.version)}`);
      }
    };

    // Both workers alive: every acknowledged write is visible at once (read-your-writes on MongoDB).
    await Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        for (let i = 0; i < 6; i += 1) {
          const id = `w-${client}-${i}`;
          await write(id, 0, true);
          await write(id, 1, true);
        }
      }),
    );
    t.equal(staleReads, 0, 'every write was readable right after its 2xx');

    // SIGKILL one worker while writes go on; the other carries on alone.
    const busy = Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        for (let i = 0; i < 6; i += 1) await write(`w-${client}-${i}`, 2, false);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killed = workers[0] as (typeof workers)[0];
    killed.child.kill('SIGKILL');
    await killed.exited;
    if (!duplicates) workers.push(await startWorkerProcess(env));
    const survivor = workers[1] as (typeof workers)[0];
    await busy;
    // Then the survivor too, and writes while no worker runs at all (acknowledged, views lag).
    survivor.child.kill('SIGKILL');
    await survivor.exited;
    for (let client = 0; client < 2; client += 1) await write(`w-${client}-0`, 3, false);

    const readModel = mongoUrl ? await openMongoReadModel(mongoUrl) : openSqliteReadModel(join(dataDir, 'readmodel.sqlite'));
    t.teardown(() => readModel.close());
    const stopped = new Map<string, number | null>();
    for (const projection of allProjections) stopped.set(projection.name, await readModel.getCheckpoint(projection.name));

    const restarted = await startWorkerProcess(env);
    t.teardown(() => restarted.child.kill('SIGKILL'));
    await waitUntilReady(api.url, 60_000);
    for (const projection of allProjections) {
      const resumed = restarted.output.find(
        (line) => line.includes('running from its stored checkpoint') && line.includes(`"projection":"${projection.name}"`),
      );
      t.match(resumed, `"checkpoint":${String(stopped.get(projection.name))}`, `${projection.name} resumed where the killed workers stopped`);
    }

    for (const [id, version] of acknowledged) {
      const view = (await (await fetch(`${api.url}/api/matches/${id}`)).json()) as { payload?: { version?: number } };
      if (view.payload?.version !== version) t.fail(`${id} shows version ${String(view.payload?.version)}, last acknowledged ${version}`);
    }
    t.pass(`all ${acknowledged.size} matches show their last acknowledged version`);

    // Every document equals what a replay of the whole log into an empty read model gives.
    const log = openSqliteEventStore(join(dataDir, 'events.sqlite'));
    const scratch = openSqliteReadModel(join(dataDir, 'scratch.sqlite'));
    t.teardown(async () => {
      await scratch.close();
      await log.close();
    });
    const head = (await log.headPosition()) ?? 0;
    for (const projection of allProjections) {
      const runner = runProjection(projection, log, scratch, quiet);
      t.ok(await runner.waitFor(head, 30_000), `${projection.name} replayed`);
      await runner.stop();
      t.equal(await readModel.getCheckpoint(projection.name), head, `${projection.name}: the worker's checkpoint is the head of the log`);
      for (const collection of projection.collections) {
        const expected = await scratch.find(collection);
        t.equal(
          JSON.stringify(await readModel.find(collection)),
          JSON.stringify(expected),
          `${collection}: all ${expected.length} documents identical to a replay`,
        );
      }
    }

    // Rebuilt beside the running worker: staged, promoted; the worker carries on from the rebuilt checkpoint.
    for (const projection of allProjections) await rebuildProjection(projection, log, readModel);
    await write('after-rebuild', 0, true);
    await write('w-1-1', 3, true);
    t.equal(staleReads, 0, 'writes after the rebuild are readable at once too');
    const newHead = (await log.headPosition()) ?? 0;
    for (const projection of allProjections) {
      const runner = runProjection(projection, log, scratch, quiet);
      t.ok(await runner.waitFor(newHead, 30_000), `${projection.name} replayed again`);
      await runner.stop();
      for (const collection of projection.collections) {
        t.equal(
          JSON.stringify(await readModel.find(collection)),
          JSON.stringify(await scratch.find(collection)),
          `${collection}: still identical after the rebuild`,
        );
      }
    }

    const statusLogged = () => restarted.output.some((line) => line.includes('"msg":"projection status"') && line.includes('"lag":'));
    await until(statusLogged);
    t.ok(statusLogged(), "the worker logs each projection's lag (every second here)");
    restarted.child.kill('SIGTERM');
    t.equal(await restarted.exited, 0, 'the worker stops cleanly on SIGTERM');
  });
}
