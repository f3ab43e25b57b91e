import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { WrongExpectedRevisionError } from '../../src/eventstore/eventStore.js';
import { fromWire, openLogWriter } from '../../src/eventstore/sqliteLogWriter.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openSqliteFile } from '../../src/platform/sqliteFile.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

const event = (id: string) => ({ id, type: 'Noted', data: '{"n":1}', metadata: { schemaVersion: 1 } });
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

t.test("the writer thread's refusals come back as this thread's errors, each append on its own", async (t) => {
  const file = join(tempDataDir(t), 'events.sqlite');
  const db = openSqliteFile(file, 'FULL');
  t.teardown(() => db.close());
  const writer = openLogWriter(file, db);
  t.teardown(() => writer.close());
  const reply = await writer.commit(
    [
      { streamId: 'a', events: [event(uuid(1)), event(uuid(2))], expectedRevision: 'no_stream' },
      { streamId: 'b', events: [event(uuid(3))], expectedRevision: 4 },
      { streamId: 'c', events: [event(uuid(1))], expectedRevision: 'any' },
    ],
    '2026-11-23T10:00:00.000Z',
  );
  if (!('outcomes' in reply)) throw new Error('the group failed');
  const [written, wrongRevision, reusedId] = reply.outcomes;
  t.same(written, { ok: true, written: { result: { nextExpectedRevision: 1, position: 2 }, placed: [{ revision: 0, position: 1 }, { revision: 1, position: 2 }] } });
  if (wrongRevision?.ok !== false || reusedId?.ok !== false) throw new Error('expected two refusals');
  const conflict = fromWire(wrongRevision.error);
  t.ok(conflict instanceof WrongExpectedRevisionError, 'a WrongExpectedRevisionError again');
  t.match(conflict, { streamId: 'b', expected: 4, actual: 'no_stream', message: 'stream b is at no_stream, expected 4' });
  t.match(fromWire(reusedId.error), { name: 'Error', message: /event ids already used elsewhere in the log \(stream c\)/ });
  t.match(fromWire({ kind: 'error', name: 'SqliteError', message: 'database or disk is full', code: 'SQLITE_FULL' }), { name: 'SqliteError', message: 'database or disk is full', code: 'SQLITE_FULL' }, "SQLite's code kept (it makes a 507)");
  t.equal(db.prepare('SELECT count(*) AS n FROM events').pluck().get(), 2, 'the committed events are seen by this thread at once');
});

t.test('a writer that has stopped refuses commits with the reason, never leaving them waiting', async (t) => {
  const file = join(tempDataDir(t), 'events.sqlite');
  const db = openSqliteFile(file, 'FULL');
  t.teardown(() => db.close());
  const writer = openLogWriter(file, db);
  await writer.close();
  await t.rejects(writer.commit([{ streamId: 'a', events: [event(uuid(1))], expectedRevision: 'any' }], new Date().toISOString()), /the log's writer thread has stopped/);
});

t.test('a process with the log open and idle exits on its own (the writer thread does not hold it)', async (t) => {
  const script = fileURLToPath(new URL('../helpers/appendAndLeaveOpen.ts', import.meta.url));
  const child = spawn(process.execPath, [...typescriptExecArgv(), script, join(tempDataDir(t), 'events.sqlite')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  t.same({ code, signal, output }, { code: 0, signal: null, output: 'appended at 1\n' });
});

t.test('a store closed right after an append has the append committed', async (t) => {
  const file = join(tempDataDir(t), 'events.sqlite');
  const store = openSqliteEventStore(file);
  const appended = store.appendToStream('a', [event(uuid(1))], 'no_stream');
  await store.close();
  t.same(await appended, { nextExpectedRevision: 0, position: 1 });
  const again = openSqliteEventStore(file);
  t.teardown(() => again.close());
  t.equal((await again.readStream('a')).length, 1);
});
