import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { verifyConsistency } from '../../src/domain/merkleTree.js';
import { openNote, parseNoteVerifierKey } from '../../src/domain/signedNote.js';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { type ServerProcess, startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

const stop = async (server: ServerProcess) => {
  server.child.kill('SIGTERM');
  await server.exited;
};
const base = JSON.parse(fixtureText({ seed: 21 })) as Record<string, unknown>;
const payloadOf = (id: string, version: number) => JSON.stringify({ ...base, id, version });
const tokenOf = (id: string) => ({ 'x-write-token': `token-of-${id}-0123456789` });

t.test('restore drill: a backup taken during uploads restores every acknowledged write, protection, and the log key auditors pinned', async (t) => {
  const source = tempDataDir(t, 'matchlog-live-');
  const env = { DATA_DIR: source, WRITE_RATE_LIMIT: 'off', TOKEN_FAILURE_LIMIT: 'off' };
  const live = await startServerProcess(env);
  t.teardown(() => stop(live));
  const upload = (url: string, id: string, version: number, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/matches/${id}`, { method: 'PUT', headers: { ...json, ...headers }, body: payloadOf(id, version) });
  const create = (url: string, id: string, version: number) =>
    fetch(`${url}/api/matches`, { method: 'POST', headers: { ...json, ...tokenOf(id) }, body: payloadOf(id, version) });

  // Acknowledged before the backup began: protected matches, some replaced once.
  const before = new Map<string, string>();
  for (let i = 0; i < 20; i += 1) {
    const id = `before-${i}`;
    t.equal((await create(live.url, id, 0)).status, 201);
    before.set(id, payloadOf(id, 0));
    if (i % 3 === 0) {
      t.equal((await upload(live.url, id, 1, tokenOf(id))).status, 200);
      before.set(id, payloadOf(id, 1));
    }
  }

  // What an auditor pinned and last saw signed.
  const pinnedKey = await (await fetch(`${live.url}/api/log/key`)).text();
  const seenCheckpoint = await (await fetch(`${live.url}/api/log/checkpoint`)).text();

  // A writer that keeps uploading new matches while the backup runs.
  let writing = true;
  let duringBackup = 0;
  const writer = (async () => {
    for (let i = 0; writing; i += 1) {
      if ((await create(live.url, `during-${i}`, 0)).status === 201) duringBackup += 1;
    }
  })();
  while (duringBackup < 3) await new Promise((resolve) => setTimeout(resolve, 20));
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  const taken = await runMatchlog(['backup', backup], env);
  writing = false;
  await writer;
  t.equal(taken.code, 0, taken.stderr);
  t.match(
    taken.stdout,
    /^backed up \d+ events \(log head \d+\), the read models, the webhooks, the write-token key, the log signing key to .*: \d+ bytes in [\d.]+ s$/m,
  );
  t.ok(duringBackup > 3, `the writer was acknowledged ${duringBackup} times meanwhile`);
  const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8')) as { files: { name: string }[]; log: { headPosition: number } };
  t.same(manifest.files.map((file) => file.name).sort(), ['events.sqlite', 'log-signing.key', 'readmodel.sqlite', 'webhooks.sqlite', 'write-token.key']);
  await stop(live);

  // A restore never overwrites data.
  const restoredDir = tempDataDir(t, 'matchlog-restored-');
  const refused = await runMatchlog(['restore', backup], { ...env, DATA_DIR: source });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^matchlog restore: refused: .* is not empty; restore into an empty DATA_DIR/);

  const restored = await runMatchlog(['restore', backup], { ...env, DATA_DIR: restoredDir });
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /^restored read models, webhooks, log, write-token key, log signing key from .* \(taken .*; \d+ events, log head \d+\) into /m);
  t.equal((await runMatchlog(['verify'], { ...env, DATA_DIR: restoredDir })).code, 0, 'verify is clean right after the restore');

  const server = await startServerProcess({ ...env, DATA_DIR: restoredDir });
  t.teardown(() => stop(server));
  await waitUntilReady(server.url);
  for (const [id, sent] of before) {
    const text = await (await fetch(`${server.url}/api/matches/${id}`)).text();
    t.ok(text.includes(sent), `${id}: the payload as sent, byte for byte`);
  }
  t.equal((await upload(server.url, 'before-0', 2, { 'x-write-token': 'not-the-token-000000' })).status, 403, 'protection intact');
  t.equal((await upload(server.url, 'before-0', 2, tokenOf('before-0'))).status, 200, 'the owner still writes');
  t.equal((await create(server.url, 'after-restore', 0)).status, 201, 'the restored service accepts new matches');
  await waitUntilReady(server.url);
  t.equal(await (await fetch(`${server.url}/api/log/key`)).text(), pinnedKey, 'the restored service signs with the key auditors pinned');
  const verifier = parseNoteVerifierKey(pinnedKey);
  const checkpoint = (note: string) => {
    const opened = openNote(note, verifier);
    const parsed = 'text' in opened ? parseCheckpointText(opened.text) : opened;
    if ('error' in parsed) throw new Error(parsed.error);
    return parsed;
  };
  const old = checkpoint(seenCheckpoint);
  const now = checkpoint(await (await fetch(`${server.url}/api/log/checkpoint`)).text());
  t.equal(now.origin, old.origin, 'under the same origin');
  const proof = (await (await fetch(`${server.url}/api/log/proof/consistency?from=${old.size}&to=${now.size}`)).json()) as { hashes: string[] };
  t.ok(
    verifyConsistency(
      old.size,
      now.size,
      proof.hashes.map((hash) => Buffer.from(hash, 'base64')),
      old.rootHash,
      now.rootHash,
    ),
    'the checkpoint seen before the backup is consistent with the restored log',
  );
  await stop(server);
  const verified = await runMatchlog(['verify'], { ...env, DATA_DIR: restoredDir });
  t.equal(verified.code, 0, verified.stdout);
});

t.test('a corrupted backup is refused with a clear message, and nothing is restored', async (t) => {
  const source = tempDataDir(t, 'matchlog-live-');
  const env = { DATA_DIR: source };
  const live = await startServerProcess(env);
  t.equal((await fetch(`${live.url}/api/matches`, { method: 'POST', headers: json, body: payloadOf('one', 0) })).status, 201);
  await stop(live);
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  t.equal((await runMatchlog(['backup', backup], env)).code, 0);

  const flipped = join(tempDataDir(t, 'matchlog-flipped-'), 'backup');
  cpSync(backup, flipped, { recursive: true });
  const log = readFileSync(join(flipped, 'events.sqlite'));
  log[Math.floor(log.length / 2)]! ^= 0x01;
  writeFileSync(join(flipped, 'events.sqlite'), log);
  const target = tempDataDir(t, 'matchlog-target-');
  const refused = await runMatchlog(['restore', flipped], { DATA_DIR: target });
  t.equal(refused.code, 1);
  t.equal(
    refused.stderr,
    'matchlog restore: refused: events.sqlite does not match its checksum in the manifest: the backup is damaged; nothing was restored\n',
  );
  t.same(readdirSync(target), [], 'nothing restored');

  const noManifest = join(tempDataDir(t, 'matchlog-partial-'), 'backup');
  mkdirSync(noManifest);
  cpSync(join(backup, 'events.sqlite'), join(noManifest, 'events.sqlite'));
  const partial = await runMatchlog(['restore', noManifest], { DATA_DIR: target });
  t.equal(partial.code, 1);
  t.match(partial.stderr, /^matchlog restore: refused: .*manifest\.json cannot be read .*: this is not a complete matchlog backup; nothing was restored\n$/);
  t.notOk(existsSync(join(target, 'events.sqlite')));
});
