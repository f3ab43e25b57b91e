import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { noteSignerFromSeed, signerKeyString } from '../../src/domain/signedNote.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

const seed = Buffer.alloc(32, 1);
const signingEnv = { LOG_SIGNING_KEY: signerKeyString(noteSignerFromSeed('matchlog.test/log', seed), seed) };

/** `matchlog audit` in this process: it talks to the server over HTTP only. */
async function audit(base: string, key: string, state: string, full = true) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['audit', base, '--key', key, '--state', state, ...(full ? ['--full'] : [])], {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    env: {},
  });
  return { code, stdout, stderr };
}

/** A server on a data directory (kept when closed), listening on loopback. */
async function serve(t: Test, dataDir: string, env: Record<string, string> = {}) {
  const started = await startTestApp(t, { DATA_DIR: dataDir, ...env });
  const base = await started.app.listen({ port: 0, host: '127.0.0.1' });
  const key = (await (await fetch(`${base}/api/log/key`)).text()).trim();
  const put = async (id: string, seed: number, headers: Record<string, string> = {}) =>
    (
      await fetch(`${base}/api/matches/${id}`, {
        method: 'PUT',
        body: fixtureText({ seed, actions: 10, id }),
        headers: { 'content-type': 'application/json', ...headers },
      })
    ).status;
  return { base, key, put, close: started.close };
}

/** Six matches, two versions each, and the auditor's first (passing) run. */
async function auditedLog(t: Test, env: Record<string, string> = {}) {
  const dataDir = tempDataDir(t);
  const state = join(tempDataDir(t, 'matchlog-auditor-'), 'state.json');
  const server = await serve(t, dataDir, env);
  for (let i = 0; i < 6; i += 1) await server.put(`m${i}`, i);
  for (let i = 0; i < 6; i += 1) await server.put(`m${i}`, 10 + i);
  const first = await audit(server.base, server.key, state);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /entries: all 12 hash to the signed root; 12 version\(s\) match their digests\nfacts: [^\n]+\naudit passed/);
  return { dataDir, state, server };
}

const events = (dataDir: string) => new Database(join(dataDir, 'events.sqlite'));

t.test("an old version's bytes edited in the SQLite file", async (t) => {
  const { dataDir, state, server } = await auditedLog(t);
  await server.close();
  const db = events(dataDir);
  const row = db.prepare<[], { position: number; data: string }>("SELECT position, data FROM events WHERE stream_id = 'match-m2' AND revision = 0").get()!;
  const edited = row.data.replace(/"name":"([^"]{3})/, '"name":"Zzz');
  t.not(edited, row.data);
  db.prepare('UPDATE events SET data = ? WHERE position = ?').run(edited, row.position);
  db.close();
  const again = await serve(t, dataDir);
  const result = await audit(again.base, again.key, state);
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    new RegExp(
      /^FAILED digest: entry \d+ \(match m2 revision 0\): SHA-256\(salt ‖ payload\) is [0-9a-f]{64}, /.source +
        /the log entry says [0-9a-f]{64}: the version's bytes were changed\n$/.source,
    ),
  );
});

t.test('an event deleted from the SQLite file', async (t) => {
  const { dataDir, state, server } = await auditedLog(t);
  await server.close();
  const db = events(dataDir);
  db.prepare("DELETE FROM events WHERE stream_id = 'match-m4' AND revision = 1").run();
  db.close();
  const again = await serve(t, dataDir);
  const result = await audit(again.base, again.key, state);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED digest: entry \d+ \(match m4 revision 1\): its payload is not served \(404\)/);
});

t.test('the log truncated and regrown, its tree rebuilt to match', async (t) => {
  const { dataDir, state, server } = await auditedLog(t);
  await server.close();
  const db = events(dataDir);
  db.prepare('DELETE FROM events WHERE position > 8').run();
  db.close();
  rmSync(join(dataDir, 'readmodel.sqlite'));
  rmSync(join(dataDir, 'readmodel.sqlite-wal'), { force: true });
  rmSync(join(dataDir, 'readmodel.sqlite-shm'), { force: true });
  const regrown = await serve(t, dataDir);
  for (let i = 0; i < 6; i += 1) await regrown.put(`n${i}`, 50 + i);
  const result = await audit(regrown.base, regrown.key, state, false);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED consistency: fork: the tree of 14 entries does not extend the tree of 12 this auditor saw signed/);
});

t.test('a log restored from an older backup', async (t) => {
  const dataDir = tempDataDir(t);
  const backup = tempDataDir(t, 'matchlog-backup-');
  const state = join(tempDataDir(t, 'matchlog-auditor-'), 'state.json');
  let server = await serve(t, dataDir);
  await server.put('b0', 1);
  await server.close();
  cpSync(dataDir, backup, { recursive: true });
  server = await serve(t, dataDir);
  await server.put('b1', 2);
  t.equal((await audit(server.base, server.key, state, false)).code, 0);
  await server.close();
  const restored = await serve(t, backup);
  const result = await audit(restored.base, restored.key, state, false);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED consistency: rollback: the log has 1 entries, fewer than the 2 this auditor saw signed/);
});

t.test('a different tree served to a second auditor (a split view)', async (t) => {
  const { dataDir, state, server } = await auditedLog(t, signingEnv);
  await server.close();
  const twin = tempDataDir(t, 'matchlog-twin-');
  cpSync(dataDir, twin, { recursive: true });
  const honest = await serve(t, dataDir, signingEnv);
  const forked = await serve(t, twin, signingEnv);
  await honest.put('m0', 100);
  await forked.put('m0', 200, {});
  const second = join(tempDataDir(t, 'matchlog-auditor-'), 'state.json');
  cpSync(state, second);
  t.equal((await audit(honest.base, honest.key, state, false)).code, 0, 'the first auditor follows the honest view');
  t.equal((await audit(forked.base, forked.key, second, false)).code, 0, 'the second follows the forked view, which extends what both saw');
  // The auditors compare notes (gossip): each checks the other's latest against its own server.
  const crossed = await audit(forked.base, forked.key, state, false);
  t.equal(crossed.code, 1);
  t.match(crossed.stderr, /^FAILED consistency: fork: the tree of 13 entries does not extend the tree of 13 this auditor saw signed/);
});

t.test('a checkpoint not signed by the pinned key', async (t) => {
  const { state, server } = await auditedLog(t);
  const other = await serve(t, tempDataDir(t));
  await other.put('x', 1);
  const result = await audit(other.base, server.key, state, false);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED signature: the latest checkpoint: the note has no signature by matchlog\.test\/log/);
});

// Issue 59: what the log commits of who could write, and of erasures, checked against what the server serves.

t.test('F1: a faked erasure (a version set to erased in the store, no MatchErased) fails audit --full', async (t) => {
  const { dataDir, state, server } = await auditedLog(t);
  await server.close();
  const db = events(dataDir);
  db.prepare("UPDATE events SET data = '{}', encoding = 'erased', base_revision = NULL WHERE stream_id = 'match-m3' AND revision = 1").run();
  db.close();
  const again = await serve(t, dataDir);
  t.equal((await fetch(`${again.base}/api/matches/m3/payload?revision=1`)).status, 410, 'the server answers the version as erased');
  const result = await audit(again.base, again.key, state);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED match m3: version\(s\) 1 answered as erased, but no MatchErased entry of the match covers them/);
});

t.test('F2: a protected match unprotected in the store and rebuilt fails audit --full, though its tree is unchanged', async (t) => {
  const dataDir = tempDataDir(t);
  const state = join(tempDataDir(t, 'matchlog-auditor-'), 'state.json');
  const server = await serve(t, dataDir);
  const token = 'the-real-token-0123456789abcdef';
  const post = await fetch(`${server.base}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-write-token': token },
    body: '{"id":"locked","sport":"volleyball"}',
  });
  t.equal(post.status, 201);
  const { receipt } = (await post.json()) as { receipt: { entry: string } };
  t.match(
    receipt.entry,
    /"credential":"bound","matchId":"locked".*"protection":"protected".*"via":"POST"/,
    'its entry commits the protection, the token bound, and POST',
  );
  t.equal((await audit(server.base, server.key, state)).code, 0, 'the honest log passes');
  await server.close();
  const db = events(dataDir);
  const row = db.prepare<[], { position: number; data: string }>("SELECT position, data FROM events WHERE stream_id = 'match-locked' AND revision = 0").get()!;
  const unprotected = row.data.replace('"protection":"protected"', '"protection":"unprotected"').replace(/,?"writeTokenHash":"[^"]*"/, '');
  t.not(unprotected, row.data);
  db.prepare('UPDATE events SET data = ? WHERE position = ?').run(unprotected, row.position);
  db.close();
  for (const file of ['readmodel.sqlite', 'readmodel.sqlite-wal', 'readmodel.sqlite-shm']) rmSync(join(dataDir, file), { force: true });
  const rebuilt = await serve(t, dataDir);
  const forged = await fetch(`${rebuilt.base}/api/matches/locked`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{"sport":"volleyball","v":2}',
  });
  t.equal(forged.status, 200, 'the attack: a write without the token is taken');
  const result = await audit(rebuilt.base, rebuilt.key, state);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED entry \d+: committed unprotected, but match locked was created protected/);
});

t.test('F10: a time the API serves that is not the logged recordedAt fails audit --full', async (t) => {
  const { dataDir, state, server } = await auditedLog(t);
  await server.close();
  const readModel = new Database(join(dataDir, 'readmodel.sqlite'));
  const row = readModel.prepare<[], { doc: string }>(`SELECT doc FROM "rm_publicView" WHERE id = 'm5'`).get()!;
  const doc = JSON.parse(row.doc) as { updatedAt: string };
  const backdated = { ...doc, updatedAt: '2020-01-01T00:00:00.000Z' };
  readModel.prepare(`UPDATE "rm_publicView" SET doc = ? WHERE id = 'm5'`).run(JSON.stringify(backdated));
  readModel.close();
  const again = await serve(t, dataDir);
  t.equal(
    ((await (await fetch(`${again.base}/api/matches/m5`)).json()) as { updatedAt: string }).updatedAt,
    '2020-01-01T00:00:00.000Z',
    'the API serves the edited time',
  );
  const result = await audit(again.base, again.key, state);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED match m5: the API says updated at 2020-01-01T00:00:00\.000Z, but the log recorded \d{4}-/);
});
