import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import t from 'tap';
import { type NewEvent, UnreadableEventError } from '../../src/eventstore/eventStore.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { liveVersion } from '../helpers/liveVersions.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

const appender = fileURLToPath(new URL('../helpers/appendVersionsUntilKilled.ts', import.meta.url));
const dir = tempDataDir(t);
const cacheBytes = 8 * 1024 * 1024;

function encodings(file: string, streamId: string): (string | null)[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string], { encoding: string | null }>('SELECT encoding FROM events WHERE stream_id = ? ORDER BY revision')
      .all(streamId)
      .map((row) => row.encoding);
  } finally {
    db.close();
  }
}

/** Starts the appender on `file` and SIGKILLs it once `acks` appends were acknowledged; the last acknowledged revision. */
async function appendUntilKilled(file: string, acks: number): Promise<number> {
  const child = spawn(process.execPath, [...typescriptExecArgv(), appender, file, '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let last = -1;
  let seen = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    last = Number(line);
    seen += 1;
    if (seen === acks) {
      child.kill('SIGKILL');
      break;
    }
  }
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
  return last;
}

t.test('a process killed while appending, between a delta and its keyframe or anywhere, leaves every acknowledged version as appended', async (t) => {
  const file = join(dir, 'crash.sqlite');
  let acknowledged = -1;
  // Each run continues the stream the killed one left: its newest version is found in the file.
  for (const acks of [7, 13, 22, 5]) {
    const last = await appendUntilKilled(file, acks);
    t.ok(last > acknowledged, `run killed after revision ${last} was acknowledged`);
    acknowledged = last;
    const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 4, cacheBytes: 0 } });
    const read = await store.readStream('match-crash');
    t.ok(read.length > acknowledged, 'every acknowledged revision is there (one more may be, committed but not yet told)');
    t.ok(
      read.every((event, revision) => event.revision === revision && event.data === liveVersion(revision).data),
      'each version is the one appended, rebuilt from its keyframe',
    );
    for (const revision of [acknowledged, acknowledged - 1, acknowledged - 2]) {
      const [one] = await store.readStream('match-crash', { direction: 'backwards', fromRevision: revision, maxCount: 1 });
      t.equal(one?.data, liveVersion(revision).data, `revision ${revision} read alone`);
    }
    acknowledged = read.length - 1;
    await store.close();
  }
  const stored = encodings(file, 'match-crash');
  t.same(stored.slice(0, 9), [null, 'delta', 'delta', 'delta', 'deflate', 'delta', 'delta', 'delta', 'deflate'], 'keyframes every 4 versions, deltas between');
});

t.test('keyframes: at most K - 1 deltas follow one, and a version that changed too much for a delta is one', async (t) => {
  const file = join(dir, 'keyframes.sqlite');
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 3, cacheBytes } });
  t.teardown(() => store.close());
  for (let revision = 0; revision < 7; revision += 1)
    await store.appendToStream('match-k', [liveVersion(revision)], revision === 0 ? 'no_stream' : revision - 1);
  const unrelated = { ...liveVersion(7), data: JSON.stringify({ text: randomUUID().repeat(100) }) };
  await store.appendToStream('match-k', [unrelated], 6);
  t.same(encodings(file, 'match-k'), [null, 'delta', 'delta', 'deflate', 'delta', 'delta', 'deflate', 'deflate']);
  t.same(
    (await store.readStream('match-k')).map((e) => e.data),
    [...[0, 1, 2, 3, 4, 5, 6].map((r) => liveVersion(r).data), unrelated.data],
  );
});

t.test('a log written before stored encodings: its rows are read as they are, and the next version is a delta against them', async (t) => {
  const file = join(dir, 'old.sqlite');
  const old = new Database(file);
  old.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision))`);
  const insert = old.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (let revision = 0; revision < 3; revision += 1) {
    const event = liveVersion(revision);
    insert.run('match-old', revision, event.id, event.type, event.data, '{"schemaVersion":1}', new Date().toISOString());
  }
  old.close();
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 32, cacheBytes } });
  t.teardown(() => store.close());
  t.same(
    (await store.readStream('match-old')).map((e) => e.data),
    [0, 1, 2].map((r) => liveVersion(r).data),
    'whole rows read as they were',
  );
  await store.appendToStream('match-old', [liveVersion(3)], 2);
  t.same(encodings(file, 'match-old'), [null, null, null, 'delta']);
  const reopened = openSqliteEventStore(file, { deltas: { keyframeInterval: 32, cacheBytes } });
  t.teardown(() => reopened.close());
  t.same(
    (await reopened.readStream('match-old')).map((e) => e.data),
    [0, 1, 2, 3].map((r) => liveVersion(r).data),
  );
});

t.test('without a cache (DELTA_CACHE_BYTES 0) every base is rebuilt from the log, with the same versions', async (t) => {
  const file = join(dir, 'nocache.sqlite');
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 8, cacheBytes: 0 } });
  t.teardown(() => store.close());
  const small = (i: number): NewEvent => ({ id: randomUUID(), type: 'ClubSyncAccepted', data: JSON.stringify({ i }), metadata: { schemaVersion: 1 } });
  const appended: string[] = [];
  for (let i = 0; i < 30; i += 1) {
    const version = { ...liveVersion(i), id: randomUUID() };
    await store.appendToStream('match-nocache', [version, small(i)], i === 0 ? 'no_stream' : appended.length - 1);
    appended.push(version.data, JSON.stringify({ i }));
  }
  t.same(
    (await store.readAll({ after: null, maxCount: 1000 })).filter((e) => e.streamId === 'match-nocache').map((e) => e.data),
    appended,
  );
  t.same(
    encodings(file, 'match-nocache').filter((e) => e === 'delta').length,
    26,
    'versions between keyframes are deltas, across the small events between them',
  );
});

t.test('racing appends of different versions at one revision: the next version is stored against the winner', async (t) => {
  const store = openSqliteEventStore(join(dir, 'race.sqlite'), { deltas: { keyframeInterval: 32, cacheBytes } });
  t.teardown(() => store.close());
  await store.appendToStream('match-race', [liveVersion(0)], 'no_stream');
  const racers = Array.from({ length: 6 }, (_, i) => ({
    ...liveVersion(1),
    id: randomUUID(),
    data: liveVersion(1).data.replace('"revision":1', `"revision":1,"racer":${i}`),
  }));
  const outcomes = await Promise.allSettled(racers.map((racer) => store.appendToStream('match-race', [racer], 0)));
  const winner = racers[outcomes.findIndex((o) => o.status === 'fulfilled')];
  await store.appendToStream('match-race', [liveVersion(2)], 1);
  t.same(
    (await store.readStream('match-race')).map((e) => e.data),
    [liveVersion(0).data, winner?.data, liveVersion(2).data],
  );
});

t.test('a delta edited in the file is an UnreadableEventError naming the version, never other bytes', async (t) => {
  const file = join(dir, 'edited.sqlite');
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 32, cacheBytes } });
  for (let revision = 0; revision < 4; revision += 1)
    await store.appendToStream('match-edited', [liveVersion(revision)], revision === 0 ? 'no_stream' : revision - 1);
  await store.close();
  const db = new Database(file);
  const row = db.prepare<[], { data: Buffer }>("SELECT data FROM events WHERE stream_id = 'match-edited' AND revision = 2").get()!;
  const edited = Buffer.from(row.data);
  const at = edited.lastIndexOf(0x3a) + 1; // inside the last inserted text
  edited[at] = edited[at] === 0x41 ? 0x42 : 0x41;
  db.prepare("UPDATE events SET data = ? WHERE stream_id = 'match-edited' AND revision = 2").run(edited);
  db.close();
  const reopened = openSqliteEventStore(file, { deltas: { keyframeInterval: 32, cacheBytes } });
  t.teardown(() => reopened.close());
  const error = await reopened.readStream('match-edited').catch((e: unknown) => e);
  t.ok(error instanceof UnreadableEventError, 'the read fails');
  t.match(String(error), /match-edited revision 2: .*checksum/);
  t.equal((await reopened.readStream('match-edited', { maxCount: 2 })).length, 2, 'the versions before it are read');
});

t.test('DELTA_KEYFRAME_INTERVAL 0 stores every version as given, as before', async (t) => {
  const file = join(dir, 'whole.sqlite');
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval: 0, cacheBytes } });
  t.teardown(() => store.close());
  for (let revision = 0; revision < 4; revision += 1)
    await store.appendToStream('match-whole', [liveVersion(revision)], revision === 0 ? 'no_stream' : revision - 1);
  t.same(encodings(file, 'match-whole'), [null, null, null, null]);
});
