import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import t from 'tap';
import { runMatchlog } from '../helpers/cli.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

// Issue 58's acceptance: erase, restore and rebuild on SQLite and on a MongoDB-wire server
// (FerretDB in CI), as an operator runs them, then every read model and file is checked.

const token = 'acceptance-token-0123456789abcdef';
const marker = `MARKER-acceptance-${Date.now()}`;
const match = (id: string, note: string) => JSON.stringify({ id, sport: 'volleyball', note, teams: { home: { name: 'Owls' }, away: { name: 'Comets' } } });

/** Every file under `dir` whose bytes hold `text` (the SQLite files, keys, ledgers). */
function filesHolding(dir: string, text: string): string[] {
  const needle = Buffer.from(text);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => {
    const path = join(dir, name);
    return statSync(path).isFile() && readFileSync(path).includes(needle);
  });
}

/** Every document of every collection of the database at `url` whose JSON holds `text`. */
async function documentsHolding(url: string, text: string): Promise<string[]> {
  const client = new MongoClient(url);
  try {
    const db = client.db();
    const found: string[] = [];
    for (const { name } of await db.listCollections().toArray()) {
      for (const doc of await db.collection(name).find().toArray()) if (JSON.stringify(doc).includes(text)) found.push(`${name}/${String(doc._id)}`);
    }
    return found;
  } finally {
    await client.close();
  }
}

for (const engine of ['sqlite', 'mongodb'] as const) {
  const skip = engine === 'mongodb' && !process.env.MONGODB_URL ? NO_MONGODB : false;
  t.test(`erase, back up, restore and rebuild on ${engine}: nothing erased comes back, anywhere`, { skip }, async (t) => {
    const readModelUrl = engine === 'mongodb' ? testMongoUrl(t) : null;
    const readModels: Record<string, string> = readModelUrl === null ? {} : { READ_MODEL_URL: readModelUrl, RUN_PROJECTIONS: 'yes' };
    const ledger = join(tempDataDir(t, 'matchlog-ledger-'), 'erasures.ledger');
    const source = tempDataDir(t, 'matchlog-source-');
    const env = { DATA_DIR: source, ERASURE_LEDGER: ledger, ...readModels };

    // The live service: two matches, then a backup, then one erased through the API and one more uploaded.
    const live = await startServerProcess(env);
    await waitUntilReady(live.url);
    const post = (id: string, note: string) =>
      fetch(`${live.url}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': token }, body: match(id, note) });
    t.equal((await post('erased-later', marker)).status, 201);
    t.equal((await post('kept', 'nothing secret')).status, 201);
    const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
    const backedUp = await runMatchlog(['backup', backup], env);
    t.equal(backedUp.code, 0, backedUp.stderr);
    const erased = await fetch(`${live.url}/api/matches/erased-later`, { method: 'DELETE', headers: { 'x-write-token': token } });
    t.equal(erased.status, 200, 'erased through the API after the backup');
    t.equal((await post('after-backup', 'uploaded after the backup')).status, 201);
    live.child.kill('SIGTERM');
    await live.exited;

    // The restore: the backup's log, the ledger re-applied; read models ahead of it emptied (MongoDB keeps them apart).
    const target = tempDataDir(t, 'matchlog-target-');
    const targetEnv = { ...env, DATA_DIR: target };
    const restored = await runMatchlog(['restore', backup, '--reapply-erasures', ledger, '--empty-read-models'], targetEnv);
    t.equal(restored.code, 0, restored.stderr);
    t.match(restored.stdout, /^erasure of erased-later \(.*\): erased again$/m, 'the erasure after the backup is applied again');

    // A rebuild of every read model from the restored log, then its verify.
    const rebuilt = await runMatchlog(['rebuild'], targetEnv);
    t.equal(rebuilt.code, 0, rebuilt.stderr);
    const verified = await runMatchlog(['verify'], targetEnv);
    t.equal(verified.code, 0, `${verified.stdout}${verified.stderr}`);

    const server = await startServerProcess(targetEnv);
    t.teardown(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    await waitUntilReady(server.url);
    t.equal((await fetch(`${server.url}/api/matches/erased-later`)).status, 410, 'the erased match answers 410');
    t.equal((await fetch(`${server.url}/api/matches/kept`)).status, 200, 'the kept match is there');
    t.equal((await fetch(`${server.url}/api/matches/after-backup`)).status, 404, 'what came after the backup is undone, as the restore said');
    const again = await fetch(`${server.url}/api/matches`, {
      method: 'POST',
      headers: { ...json, 'x-write-token': token },
      body: match('erased-later', 'again'),
    });
    t.equal(again.status, 410, 'the erased id cannot be uploaded again');
    for (const path of ['/match/erased-later', '/match/erased-later?revision=0', '/api/matches/erased-later/history', '/match/erased-later/history']) {
      t.notOk((await (await fetch(`${server.url}${path}`)).text()).includes(marker), `${path}: nothing of the payload`);
    }
    t.same(filesHolding(target, marker), [], 'no file of the restored DATA_DIR holds the payload');
    if (readModelUrl !== null) t.same(await documentsHolding(readModelUrl, marker), [], 'no document of any MongoDB collection holds it');
  });
}
