import { join } from 'node:path';
import t from 'tap';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';

/**
 * Several API processes against the same stores: two real server processes share one log (a
 * SQLite file on the embedded engine) and one set of read models (SQLite, each process running
 * the projections; or MongoDB with a separate worker). Clients spread over both processes race
 * for the same new match and write different ones: the state table's race rule holds across
 * processes, no write is refused for contention, and each process reads what the other wrote.
 */
for (const engine of ['sqlite', 'mongodb'] as const) {
  const mongoUrl = engine === 'mongodb' ? testMongoUrl(t, 'matchlog_apis') : null;
  const skip = engine === 'mongodb' && mongoUrl === null ? NO_MONGODB : false;
  t.test(`two API processes on one log, read models on ${engine}`, { skip }, async (t) => {
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
    const base = (i: number) => apis[i % apis.length]!.url;

    const racers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fetch(`${base(i)}/api/matches`, {
          method: 'POST',
          headers: { ...json, 'x-write-token': `racer-${String(i).padStart(2, '0')}-0123456789abcdef` },
          body: JSON.stringify({ id: 'contested', racer: i }),
        }).then((res) => ({ i, status: res.status })),
      ),
    );
    const winners = racers.filter((r) => r.status === 201);
    t.equal(winners.length, 1, 'exactly one creator across both processes');
    t.equal(racers.filter((r) => r.status === 403).length, 15, 'everyone else is forbidden');
    for (let i = 0; i < apis.length; i += 1) {
      const stored = (await (await fetch(`${base(i)}/api/matches/contested`)).json()) as { payload: { racer: number }; versions: number };
      t.same([stored.payload.racer, stored.versions], [winners[0]?.i, 1], `process ${i} shows the winner's payload, one version`);
    }

    const writes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${base(i)}/api/matches/${i % 2 === 0 ? 'shared' : `own-${i}`}`, { method: 'PUT', headers: json, body: JSON.stringify({ n: i }) }).then(
          (res) => res.status,
        ),
      ),
    );
    t.same([...new Set(writes)], [200], 'every write on either process is acknowledged, none refused for contention');
    for (let i = 1; i < 40; i += 2) {
      const res = await fetch(`${base(i + 1)}/api/matches/own-${i}`);
      t.equal(((await res.json()) as { payload?: { n?: number } }).payload?.n, i, `own-${i}, written on process ${i % 2}, is read on the other`);
    }
    const shared = (await (await fetch(`${base(0)}/api/matches/shared`)).json()) as { versions: number };
    t.equal(shared.versions, 20, 'the shared match has all twenty versions');
  });
}
