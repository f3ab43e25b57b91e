import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';

const cli = fileURLToPath(new URL('../../src/bin/matchlog.ts', import.meta.url));

/** `matchlog projections` as a real process, killed with SIGKILL once `until` says so (or when it exits). */
async function runWorkerUntil(env: Record<string, string>, until: () => boolean): Promise<void> {
  const child = spawn(process.execPath, [...typescriptExecArgv(), cli, 'projections'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let done = false;
  void exited.then(() => (done = true));
  while (!done && !until()) await wait(5);
  child.kill('SIGKILL');
  await exited;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tree's size and its leaves' (stream, revision) in index order, as stored. */
function tree(dataDir: string) {
  const db = new Database(join(dataDir, 'readmodel.sqlite'), { readonly: true });
  try {
    // Made by the tree's first commit (or a read of it): none before.
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'rm_logHead'").get()) return { size: 0, leaves: [] };
    const head = db.prepare<[], { doc: string }>("SELECT doc FROM rm_logHead WHERE id = 'head'").get();
    const leaves = db
      .prepare<[], { doc: string }>('SELECT doc FROM rm_logLeaves ORDER BY id')
      .all()
      .map((row) => JSON.parse(row.doc) as { index: number; streamId: string; revision: number });
    return { size: head ? (JSON.parse(head.doc) as { size: number }).size : 0, leaves };
  } finally {
    db.close();
  }
}

function logEvents(dataDir: string) {
  const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
  try {
    return db
      .prepare<[], { stream_id: string; revision: number }>(
        "SELECT stream_id, revision FROM events WHERE stream_id LIKE 'match-%' OR stream_id LIKE 'club-%' ORDER BY position",
      )
      .all();
  } finally {
    db.close();
  }
}

t.test("each event becomes exactly one leaf across SIGKILLs between its append and the tree's update", async (t) => {
  const dataDir = tempDataDir(t);
  // The server appends but runs no projections: every event it acknowledges is in the window
  // between its append and its leaf.
  const server = await startServerProcess({ DATA_DIR: dataDir, RUN_PROJECTIONS: 'no', READ_YOUR_WRITES_TIMEOUT_MS: '0' });
  t.teardown(() => server.child.kill('SIGKILL'));
  for (let i = 0; i < 20; i += 1) {
    const res = await fetch(`${server.url}/api/matches/${i % 2 === 0 ? `put-${i % 6}` : `other-${i % 7}`}`, {
      method: 'PUT',
      headers: json,
      body: fixtureText({ sport: 'basketball', seed: i, actions: 5 }),
    });
    t.equal(res.status, 200);
  }
  server.child.kill('SIGKILL');
  await server.exited;
  // Many more appends, so that the catch-up below takes long enough to be killed in the middle.
  const store = openSqliteEventStore(join(dataDir, 'events.sqlite'));
  for (let i = 0; i < 4000; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        store.appendToStream(
          `match-bulk-${i + j}`,
          [
            {
              id: crypto.randomUUID(),
              type: 'MatchCreated',
              data: `{"schemaVersion":1,"matchId":"bulk-${i + j}","protection":"unprotected","createdVia":"PUT","payload":{"n":${i + j}}}`,
              metadata: { schemaVersion: 1 },
            },
          ],
          'no_stream',
        ),
      ),
    );
  }
  await store.close();
  const events = logEvents(dataDir);
  t.equal(tree(dataDir).size, 0, 'no leaf yet');

  // The tree's only writer, killed mid-catch-up again and again: each time once the tree has grown.
  const sizes: number[] = [];
  for (let kill = 1; kill <= 4; kill += 1) {
    const target = Math.floor((events.length * kill) / 5);
    await runWorkerUntil({ DATA_DIR: dataDir }, () => tree(dataDir).size >= target);
    sizes.push(tree(dataDir).size);
  }
  await runWorkerUntil({ DATA_DIR: dataDir }, () => tree(dataDir).size >= events.length);
  sizes.push(tree(dataDir).size);
  t.comment(`tree sizes after each kill: ${sizes.join(', ')} of ${events.length}`);
  t.ok(
    sizes.slice(0, 4).some((size) => size > 0 && size < events.length),
    'at least one kill came in the middle of the catch-up',
  );

  const { size, leaves } = tree(dataDir);
  t.equal(size, events.length, 'as many leaves as match and club events');
  t.same(
    leaves.map((leaf) => [leaf.streamId, leaf.revision]),
    events.map((event) => [event.stream_id, event.revision]),
    'one leaf per event, in log order',
  );
  t.same(
    leaves.map((leaf) => leaf.index),
    leaves.map((_, i) => i),
  );
  let out = '';
  const code = await runCli(['verify'], { out: (s) => (out += s), err: (s) => (out += s), env: { DATA_DIR: dataDir } });
  t.equal(code, 0, out);
  t.match(out, /transparencyLog: matches the log/, 'a rebuild of the tree from the log gives the same leaves and root');
});
