import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
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
