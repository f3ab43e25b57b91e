import { cpSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { noteSignerFromSeed, signerKeyString } from '../../src/domain/signedNote.js';
import { fixture } from '../helpers/fixtures.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

const seed = Buffer.alloc(32, 2);
const signingEnv = { LOG_SIGNING_KEY: signerKeyString(noteSignerFromSeed('matchlog.test/log', seed), seed) };

/** `matchlog monitor --once` in this process: it talks to the server over HTTP only. */
async function monitor(base: string, key: string, state: string, watch: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['monitor', base, '--key', key, '--state', state, '--once', ...watch], {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    env: {},
  });
  return { code, stdout, stderr };
}

/** A server on a data directory (kept when closed), listening on loopback, with the fixed log key. */
async function serve(t: Test, dataDir: string) {
  const started = await startTestApp(t, { DATA_DIR: dataDir, ...signingEnv });
  const base = await started.app.listen({ port: 0, host: '127.0.0.1' });
  const key = (await (await fetch(`${base}/api/log/key`)).text()).trim();
  const put = async (id: string, status: string, home: number) => {
    const body = JSON.stringify({
      ...fixture({ seed: 7, actions: 4, id }),
      status,
      homeTeam: { name: 'Herons', setsWon: home },
      awayTeam: { name: 'Owls', setsWon: 1 },
    });
    const response = await fetch(`${base}/api/matches/${id}`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    if (response.status >= 300) throw new Error(`PUT ${id}: ${response.status} ${await response.text()}`);
  };
  return { base, key, put, close: started.close };
}

t.test('the monitor follows the log and reports the watched matches', async (t) => {
  const dataDir = tempDataDir(t);
  const state = join(tempDataDir(t, 'matchlog-monitor-'), 'state.json');
  const server = await serve(t, dataDir);
  await server.put('watched', 'live', 1);
  await server.put('other', 'live', 0);

  const first = await monitor(server.base, server.key, state, ['--match', 'watched']);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /^entry 0: match watched revision 0 MatchCreated at \S+Z: payload matches its digest, status live\n/);
  t.notMatch(first.stdout, /match other/, 'an unwatched match is not reported');
  t.match(first.stdout, /checkpoint: 2 entries, 2 new, consistent with the 0 seen before\n$/);

  await server.put('watched', 'final', 2);
  await server.put('other', 'final', 3);
  const second = await monitor(server.base, server.key, state, ['--match', 'watched']);
  t.equal(second.code, 0, second.stderr);
  t.match(second.stdout, /^entry 2: match watched revision 1 MatchReplaced at \S+: payload matches its digest, status final\n/);
  t.match(second.stdout, /checkpoint: 4 entries, 2 new, consistent with the 2 seen before\n$/);

  await server.put('watched', 'final', 3);
  const third = await monitor(server.base, server.key, state, ['--match', 'watched']);
  t.equal(third.code, 0, third.stderr);
  t.match(
    third.stdout,
    /^CHANGED AFTER FINAL \(revision 1 was final\): entry 4: match watched revision 2 MatchReplaced /,
    'a change after the final whistle stands out',
  );

  const quiet = await monitor(server.base, server.key, state, ['--match', 'watched']);
  t.equal(quiet.stdout, 'checkpoint: 5 entries, 0 new, consistent with the 5 seen before\n');
});

t.test('a forked checkpoint signed by the log key fails the monitor with exit 1', async (t) => {
  const dataDir = tempDataDir(t);
  const state = join(tempDataDir(t, 'matchlog-monitor-'), 'state.json');
  let server = await serve(t, dataDir);
  await server.put('m', 'live', 0);
  await server.close();
  const twin = tempDataDir(t, 'matchlog-twin-');
  cpSync(dataDir, twin, { recursive: true });
  server = await serve(t, dataDir);
  const forked = await serve(t, twin);
  await server.put('m', 'final', 1);
  await forked.put('m', 'final', 2);
  t.equal((await monitor(server.base, server.key, state, ['--match', 'm'])).code, 0, 'the honest log passes');
  const result = await monitor(forked.base, forked.key, state, ['--match', 'm']);
  t.equal(result.code, 1);
  t.match(result.stderr, /^FAILED consistency: fork: the tree of 2 entries does not extend the tree of 2 this monitor saw signed/);
  t.equal(result.stdout, '', 'nothing of the forked log is reported');
});
