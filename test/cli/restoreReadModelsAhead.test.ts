import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

const base = JSON.parse(fixtureText({ seed: 58 })) as Record<string, unknown>;
const payloadOf = (id: string) => JSON.stringify({ ...base, id, version: 0 });

/** Starts a server on `env`, uploads the matches, and stops it. */
async function upload(env: Record<string, string>, ids: string[]): Promise<void> {
  const server = await startServerProcess(env);
  try {
    await waitUntilReady(server.url);
    for (const id of ids) {
      const response = await fetch(`${server.url}/api/matches`, { method: 'POST', headers: json, body: payloadOf(id) });
      if (response.status !== 201) throw new Error(`upload of ${id}: ${response.status} ${await response.text()}`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/**
 * Issue 58, N3: read models kept beside a restore (MongoDB's, or a SQLite file outside DATA_DIR)
 * with checkpoints beyond the restored log would skip every event appended after the restore
 * up to them. The restore refuses them, naming which, or empties them when asked.
 */
async function readModelsAheadAreRefusedOrEmptied(t: Test, readModelUrl: string) {
  const source = tempDataDir(t, 'matchlog-ahead-');
  const env = { DATA_DIR: source, READ_MODEL_URL: readModelUrl, RUN_PROJECTIONS: 'yes', WRITE_RATE_LIMIT: 'off' };
  await upload(env, ['early-1', 'early-2']);
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  const taken = await runMatchlog(['backup', backup], env);
  t.equal(taken.code, 0, taken.stderr);
  await upload(env, ['late-1', 'late-2', 'late-3']);

  const target = tempDataDir(t, 'matchlog-target-');
  const targetEnv = { ...env, DATA_DIR: target };
  const refused = await runMatchlog(['restore', backup], targetEnv);
  t.equal(refused.code, 1, refused.stdout);
  t.match(
    refused.stderr,
    new RegExp(
      '^matchlog restore: refused: the read models at \\S+ are ahead of the restored log \\(head \\d+\\): publicView at \\d+, ' +
        '.*--empty-read-models.*; nothing was restored\\n$',
    ),
  );
  t.same(readdirSync(target), [], 'nothing restored');

  const restored = await runMatchlog(['restore', backup, '--empty-read-models'], targetEnv);
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /^emptied the read models: the projections rebuild them from the restored log$/m);

  const server = await startServerProcess(targetEnv);
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  await waitUntilReady(server.url);
  for (const id of ['after-1', 'after-2', 'after-3', 'after-4']) {
    t.equal((await fetch(`${server.url}/api/matches`, { method: 'POST', headers: json, body: payloadOf(id) })).status, 201, `${id} accepted`);
    t.equal((await fetch(`${server.url}/api/matches/${id}`)).status, 200, `${id} is projected (not skipped)`);
  }
  t.equal((await fetch(`${server.url}/api/matches/early-1`)).status, 200, 'the backup is projected again');
  t.equal((await fetch(`${server.url}/api/matches/late-1`)).status, 404, 'what the restore undid is gone from the read models too');
}

t.test('a restore refuses SQLite read models outside DATA_DIR that are ahead of the restored log, or empties them', async (t) => {
  const readModels = join(tempDataDir(t, 'matchlog-readmodels-'), 'readmodel.sqlite');
  await readModelsAheadAreRefusedOrEmptied(t, `sqlite:${readModels}`);
  t.ok(existsSync(readModels), 'the read models were rebuilt in their place');
});

const mongoUrl = testMongoUrl(t, 'matchlog_restore');
t.test('a restore refuses MongoDB read models ahead of the restored log, or empties them', { skip: mongoUrl === null ? NO_MONGODB : false }, async (t) => {
  if (mongoUrl !== null) await readModelsAheadAreRefusedOrEmptied(t, mongoUrl);
});
