import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

const token = 'audit-token-0123456789ab';

/** Every read-model document, in a fixed order, as stored. */
function snapshot(dataDir: string): string {
  const db = new Database(join(dataDir, 'readmodel.sqlite'), { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name")
      .all();
    return JSON.stringify(
      tables.map(({ name }) => [name, db.prepare(`SELECT id, doc FROM "${name}" ORDER BY id`).all()]).filter(([, rows]) => (rows as unknown[]).length > 0),
    );
  } finally {
    db.close();
  }
}

t.test('the auditor CLI on a live data directory', async (t) => {
  const { app, dataDir } = await startTestApp(t);
  const env = { DATA_DIR: dataDir };
  for (let v = 0; v < 4; v += 1) {
    const payload = JSON.parse(fixtureText({ seed: 40 + v, actions: 30, id: 'audited' }));
    await app.inject({
      method: 'POST',
      url: '/api/matches',
      headers: { ...json, 'x-write-token': token },
      payload: { ...payload, homeTeam: { name: 'Herons', setsWon: v }, awayTeam: { name: 'Owls', setsWon: 1 } },
    });
  }
  await app.inject({ method: 'PUT', url: '/api/matches/audited', headers: json, payload: { rejected: true } });
  for (let i = 0; i < 5; i += 1)
    await app.inject({ method: 'PUT', url: `/api/matches/other-${i}`, headers: json, payload: fixtureText({ sport: 'basketball', seed: i, actions: 20 }) });

  t.test('replay prints each version and what changed', async (t) => {
    const { code, stdout } = await runMatchlog(['replay', 'audited'], env);
    t.equal(code, 0);
    t.match(stdout, /^match audited\n/);
    t.match(stdout, /rev 0 +\S+Z {2}MatchCreated by POST \(protected\) {2}\[loopback, request /);
    t.equal((stdout.match(/MatchReplaced by POST/g) ?? []).length, 3);
    t.match(stdout, /Herons 0 : 1 Owls \(sets\)/);
    t.match(stdout, /score 2:1 → 3:1/);
    t.notMatch(stdout, /rejected/, 'a refused write is not in the log');
    t.match(stdout, /\n4 events\n$/);
    const missing = await runMatchlog(['replay', 'nope'], env);
    t.equal(missing.code, 1);
    t.match(missing.stderr, /no match with id "nope"/);
  });

  t.test('export prints NDJSON without secrets', async (t) => {
    const { code, stdout } = await runMatchlog(['export', 'audited'], env);
    t.equal(code, 0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    t.equal(lines.length, 4);
    t.same(
      lines.map((l) => l.revision),
      [0, 1, 2, 3],
    );
    t.match(lines[0], { matchId: 'audited', type: 'MatchCreated', via: 'POST', protection: 'protected', payload: { homeTeam: { name: 'Herons' } } });
    t.notOk(stdout.includes(token) || stdout.includes('hmac'), 'no token, no hash');
  });

  t.test('verify passes on a healthy store', async (t) => {
    const { code, stdout } = await runMatchlog(['verify'], env);
    t.equal(code, 0, stdout);
    t.match(stdout, /publicView: matches the log/);
    t.match(stdout, /payloads: 9 version\(s\) match their digests\n/);
    t.match(stdout, /verified: every version is as stored, and every read model is exactly what the log says/);
  });

  t.test('rebuild is byte-identical and the service keeps serving', async (t) => {
    const before = snapshot(dataDir);
    const rebuilding = runMatchlog(['rebuild'], env);
    let served = 0;
    let finished = false;
    void rebuilding.then(() => (finished = true));
    while (!finished) {
      const res = await app.inject({ method: 'GET', url: '/api/matches/audited' });
      if (res.statusCode === 200) served += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { code, stdout } = await rebuilding;
    t.equal(code, 0);
    t.match(stdout, /rebuilt publicView: 9 events in [\d.]+ s \(\d+ events\/s\)/);
    t.ok(served > 0, `reads kept being served during the rebuild (${served})`);
    t.equal(snapshot(dataDir), before, 'byte-identical read model');
    const write = await app.inject({ method: 'PUT', url: '/api/matches/after-rebuild', headers: json, payload: { ok: true } });
    t.equal(write.statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: '/api/matches/after-rebuild' })).statusCode, 200, 'the running projection carried on after the switch');
    const unknown = await runMatchlog(['rebuild', 'nope'], env);
    t.equal(unknown.code, 2);
    t.match(unknown.stderr, /unknown projection "nope"/);
  });

  t.test('verify fails, naming the match, when a read-model document is tampered with', async (t) => {
    const db = new Database(join(dataDir, 'readmodel.sqlite'));
    db.prepare(`UPDATE rm_publicView SET doc = json_set(doc, '$.versions', 99) WHERE id = 'audited'`).run();
    db.prepare(`DELETE FROM rm_publicView WHERE id = 'other-3'`).run();
    db.close();
    const { code, stdout } = await runMatchlog(['verify'], env);
    t.equal(code, 1);
    t.match(stdout, /publicView: 2 difference\(s\)/);
    t.match(stdout, /publicView audited: differs at versions/);
    t.match(stdout, /publicView other-3: missing from the read model/);
    t.match(stdout, /FAILED: 2 difference\(s\)/);
    await runMatchlog(['rebuild', 'publicView'], env);
    t.equal((await runMatchlog(['verify'], env)).code, 0, 'a rebuild repairs it');
  });
});

t.test('verify fails, naming the version, when a payload in the log is edited', async (t) => {
  const { app, dataDir } = await startTestApp(t);
  for (const v of [1, 2]) await app.inject({ method: 'PUT', url: '/api/matches/edited', headers: json, payload: { homeTeam: { name: 'Herons', setsWon: v } } });
  await app.close();
  const db = new Database(join(dataDir, 'events.sqlite'));
  db.prepare(`UPDATE events SET data = replace(data, '"setsWon":1', '"setsWon":3') WHERE stream_id = 'match-edited' AND revision = 0`).run();
  db.close();
  const { code, stdout } = await runMatchlog(['verify'], { DATA_DIR: dataDir });
  t.equal(code, 1, stdout);
  t.match(stdout, /payloads: 1 of 2 version\(s\) do not match their digests\n {2}match-edited revision 0: the payload text is not what was stored\n/);
  t.match(stdout, /FAILED/);
});

t.test(
  'verify rebuilds every version of a live match stored as deltas and checks each against its digest; an edited keyframe fails it, naming the version',
  async (t) => {
    const { app, dataDir } = await startTestApp(t);
    const uploads = liveMatchUploads().slice(0, 40);
    for (const payload of uploads) t.equal((await app.inject({ method: 'PUT', url: '/api/matches/live', headers: json, payload })).statusCode, 200);
    await app.close();
    const stored = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
    const encodings = stored
      .prepare<[], { encoding: string | null }>("SELECT encoding FROM events WHERE stream_id = 'match-live' ORDER BY revision")
      .all()
      .map((row) => row.encoding);
    stored.close();
    t.same([encodings[0], new Set(encodings.slice(1))], [null, new Set(['delta', 'deflate'])], 'a keyframe, then deltas and deflated keyframes');
    const ok = await runMatchlog(['verify'], { DATA_DIR: dataDir });
    t.equal(ok.code, 0, ok.stdout);
    t.match(ok.stdout, /payloads: 40 version\(s\) match their digests/);
    const db = new Database(join(dataDir, 'events.sqlite'));
    db.prepare(`UPDATE events SET data = replace(data, '"setsWon":0', '"setsWon":3') WHERE stream_id = 'match-live' AND revision = 0`).run();
    db.close();
    const { code, stdout } = await runMatchlog(['verify'], { DATA_DIR: dataDir });
    t.equal(code, 1, stdout);
    t.match(stdout, /payloads: the log cannot be read from position \d+ on: .*match-live revision 1: .*checksum/);
    t.match(stdout, /FAILED/);
  },
);
