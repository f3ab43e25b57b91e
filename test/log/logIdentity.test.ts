import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { openNote, parseNoteVerifierKey } from '../../src/domain/signedNote.js';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { loadLogSigner } from '../../src/runtime/logSigningKey.js';
import { fixtureText } from '../helpers/fixtures.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

/** The origin line of a signed checkpoint, checked against the verifier key. */
function originOf(note: string, key: string): string {
  const opened = openNote(note, parseNoteVerifierKey(key));
  if ('error' in opened) throw new Error(opened.error);
  const parsed = parseCheckpointText(opened.text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.origin;
}

t.test('a new key takes LOG_ORIGIN, else the public host without a default or ephemeral port', async (t) => {
  t.equal(loadConfig({ PUBLIC_BASE_URL: 'https://scores.example.org:443/base', PORT: '0' }).logOrigin, 'scores.example.org/log');
  t.equal(loadConfig({ PORT: '0' }).logOrigin, 'localhost/log', 'no PUBLIC_BASE_URL: not the port the process listens on');
  t.equal(loadConfig({ PORT: '3000' }).logOrigin, 'localhost/log');
  t.equal(loadConfig({ LOG_ORIGIN: 'league.example/log', PORT: '0' }).logOriginSet, true);
});

t.test('the origin is fixed with the key: a server started later with PUBLIC_BASE_URL keeps signing under the first origin', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await startTestApp(t, { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://first.example.org' });
  const key = (await first.app.inject({ url: '/api/log/key' })).body.trim();
  t.equal(originOf((await first.app.inject({ url: '/api/log/checkpoint' })).body, key), 'first.example.org/log');
  await first.close();

  const second = await startTestApp(t, { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://second.example.org:8443', PORT: '4000' });
  t.equal((await second.app.inject({ url: '/api/log/key' })).body.trim(), key, 'the same key');
  t.equal(originOf((await second.app.inject({ url: '/api/log/checkpoint' })).body, key), 'first.example.org/log', 'the same origin');
});

t.test("export without the server's settings signs the origin fixed with the key", async (t) => {
  const { app, dataDir, close } = await startTestApp(t, { PUBLIC_BASE_URL: 'https://scores.example.org' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/matches',
    payload: fixtureText({ seed: 3, id: 'kept-origin' }),
    headers: { 'content-type': 'application/json' },
  });
  t.equal(created.statusCode, 201);
  const key = (await app.inject({ url: '/api/log/key' })).body.trim();
  await close();
  let out = '';
  const code = await runCli(['export', 'kept-origin'], {
    out: (text) => void (out += text),
    err: () => {},
    env: { DATA_DIR: dataDir, PORT: '0' },
    readStdin: async () => '',
  });
  t.equal(code, 0);
  const line = JSON.parse(out.split('\n')[0] ?? '') as { log: { checkpoint: string } };
  t.equal(originOf(line.log.checkpoint, key), 'scores.example.org/log');
});

t.test('a LOG_ORIGIN other than the one fixed with the key is refused in one line', async (t) => {
  const dataDir = tempDataDir(t);
  loadLogSigner(loadConfig({ DATA_DIR: dataDir, LOG_ORIGIN: 'league.example/log' }));
  t.throws(() => loadLogSigner(loadConfig({ DATA_DIR: dataDir, LOG_ORIGIN: 'other.example/log' })), ConfigError);
  t.equal(
    loadLogSigner(loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://other.example' })).name,
    'league.example/log',
    'no LOG_ORIGIN: the key decides',
  );

  const server = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));
  const started = spawnSync(process.execPath, [...typescriptExecArgv(), server], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_ORIGIN: 'other.example/log', HOST: '127.0.0.1', PORT: '0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(started.status, 2);
  t.equal(started.stdout, '', 'nothing started');
  t.match(
    started.stderr,
    new RegExp(
      '^invalid configuration: LOG_ORIGIN is "other\\.example/log", but the log\'s origin is "league\\.example/log", ' +
        'fixed with its signing key \\(DATA_DIR/log-signing\\.key\\): [^\\n]*\\n$',
    ),
  );
});

t.test('with LOG_SIGNING_KEY its name is the origin, and another LOG_ORIGIN is refused', async (t) => {
  const dataDir = tempDataDir(t);
  const made = loadLogSigner(loadConfig({ DATA_DIR: dataDir, LOG_ORIGIN: 'shared.example/log' }));
  const keyText = readFileSync(`${dataDir}/log-signing.key`, 'utf8').trim();
  t.equal(loadConfig({ LOG_SIGNING_KEY: keyText, PUBLIC_BASE_URL: 'https://elsewhere.example' }).logOrigin, made.name);
  t.throws(
    () => loadConfig({ LOG_SIGNING_KEY: keyText, LOG_ORIGIN: 'elsewhere.example/log' }),
    /^invalid configuration: LOG_ORIGIN is "elsewhere\.example\/log", but the log's origin is "shared\.example\/log"/,
  );
});
