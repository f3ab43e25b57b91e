import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cosignatureLine, parseCosignatureVerifierKey, parseCosignerKey, verifyCosignatureLine } from '../../src/domain/cosignature.js';
import { noteSignerFromSeed, signNote, verifierKeyString } from '../../src/domain/signedNote.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

/** Built by .ci/run from test/verifier (Go: golang.org/x/mod/sumdb/note, github.com/transparency-dev/merkle). */
const verifier = process.env.MATCHLOG_GO_VERIFIER;
const missing =
  verifier === undefined
    ? 'MATCHLOG_GO_VERIFIER is not set (.ci/run builds the Go verifier when Go is installed)'
    : existsSync(verifier)
      ? null
      : `MATCHLOG_GO_VERIFIER names no file: ${verifier}`;

const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(verifier!, args, (error, stdout) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout }));
  });

t.test('an independent Go implementation verifies signatures, receipts, inclusion and consistency', { skip: missing ?? false }, async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const dir = tempDataDir(t, 'matchlog-verifier-');
  const key = (await (await fetch(`${base}/api/log/key`)).text()).trim();
  const upload = async (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
    (await fetch(`${base}${path}`, { method, body, headers: { 'content-type': 'application/json', ...headers } })).text();

  for (let i = 0; i < 7; i += 1) await upload('PUT', `/api/matches/before-${i}`, fixtureText({ seed: i, actions: 10 }));
  const before = join(dir, 'before.checkpoint');
  const first = await run(['-url', base, '-key', key, '-save', before, '-samples', '5']);
  t.equal(first.code, 0, first.stdout);
  t.match(first.stdout, /ok checkpoint signed by matchlog\.test\/log: origin matchlog\.test\/log, size 7/);

  for (let i = 0; i < 30; i += 1) await upload('PUT', `/api/matches/after-${i % 9}`, fixtureText({ sport: 'basketball', seed: 100 + i, actions: 5 }));
  const receipt = join(dir, 'receipt.json');
  writeFileSync(
    receipt,
    await upload('POST', '/api/matches', fixtureText({ seed: 77, actions: 10, id: 'receipted' }), { 'x-write-token': 'verifier-token-0123456789' }),
  );
  for (let i = 0; i < 5; i += 1) await upload('PUT', `/api/matches/later-${i}`, fixtureText({ seed: 200 + i, actions: 5 }));

  const second = await run(['-url', base, '-key', key, '-since', before, '-receipt', receipt, '-samples', '25']);
  t.equal(second.code, 0, second.stdout);
  t.match(second.stdout, /ok receipt: entry 37 is in the signed tree of size 38, which the latest extends/);
  t.match(second.stdout, /ok 25 random entries are included in the tree of size 43/);
  t.match(second.stdout, /ok the tree of size 43 is consistent with the earlier tree of size 7/);

  t.test('and refuses what does not hold', async (t) => {
    const answer = JSON.parse(
      await upload('PUT', '/api/matches/receipted', fixtureText({ seed: 78, actions: 10, id: 'receipted' }), { 'x-write-token': 'verifier-token-0123456789' }),
    );
    answer.receipt.entry = answer.receipt.entry.replace(/"revision":\d+/, '"revision":0');
    writeFileSync(receipt, JSON.stringify(answer));
    const forged = await run(['-url', base, '-key', key, '-receipt', receipt]);
    t.equal(forged.code, 1);
    t.match(forged.stdout, /FAIL receipt of entry \d+ in its checkpoint/);
    const otherKey = key.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    const wrongKey = await run(['-url', base, '-key', otherKey]);
    t.equal(wrongKey.code, 1);
    t.match(wrongKey.stdout, /FAIL verifier key|FAIL checkpoint signature/);
  });
});

// The fixed vectors of test/domain/cosignature.test.ts.
const witnessSigner = 'PRIVATE+KEY+witness.example/w1+aa4a09d1+BAcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH';
const witnessKey = 'witness.example/w1+aa4a09d1+BOpKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs';
const body = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const logSigner = noteSignerFromSeed('example.com/behind-the-sofa', Buffer.alloc(32, 1));

t.test("transparency-dev/formats verifies matchlog's cosignature/v1 lines and reads their time", { skip: missing ?? false }, async (t) => {
  const dir = tempDataDir(t, 'matchlog-cosignature-');
  const file = join(dir, 'cosigned.checkpoint');
  const cosigner = parseCosignerKey(witnessSigner);
  writeFileSync(file, `${signNote(body, logSigner)}${cosignatureLine(body, cosigner, 1679315147)}\n`);
  const verified = await run(['-note', file, '-key', verifierKeyString(logSigner), '-witness', witnessKey]);
  t.equal(verified.code, 0, verified.stdout);
  t.match(verified.stdout, /ok cosignature\/v1 by witness\.example\/w1 at 1679315147/);

  writeFileSync(file, `${signNote(body.replace('20852163', '20852164'), logSigner)}${cosignatureLine(body, cosigner, 1679315147)}\n`);
  const forged = await run(['-note', file, '-key', verifierKeyString(logSigner), '-witness', witnessKey]);
  t.equal(forged.code, 1, 'a cosignature over another tree does not verify');
  t.match(forged.stdout, /FAIL note: invalid signature for key witness\.example\/w1\+aa4a09d1/);
});

t.test("matchlog verifies transparency-dev/formats' own cosignature/v1 lines", { skip: missing ?? false }, async (t) => {
  const file = join(tempDataDir(t, 'matchlog-cosignature-'), 'checkpoint');
  writeFileSync(file, signNote(body, logSigner));
  const signed = await run(['-note', file, '-cosign', witnessSigner]);
  t.equal(signed.code, 0, signed.stdout);
  const line = signed.stdout.split('\n').find((l) => l.startsWith('\u2014 witness.example/w1 '));
  const time = verifyCosignatureLine(line ?? '', parseCosignatureVerifierKey(witnessKey), body);
  t.ok(time !== null && Math.abs(time - Date.now() / 1000) < 60, `Go's line ${line} verifies with a time of now`);
});
