import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { createFileOnce } from '../../src/platform/privateFiles.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

const run = promisify(execFile);

t.test('createFileOnce makes the file once, owner-only, and leaves nothing else behind', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-once-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'some.key');
  t.equal(createFileOnce(file, 'first\n'), true, 'made');
  t.equal(readFileSync(file, 'utf8'), 'first\n');
  t.equal(statSync(file).mode & 0o777, 0o600, 'mode 0600');
  t.equal(createFileOnce(file, 'second\n'), false, 'not made again');
  t.equal(readFileSync(file, 'utf8'), 'first\n', 'the first content stands');
  t.same(readdirSync(dir), ['some.key'], 'no file of its own left');
});

// Two servers started at once on one DATA_DIR: the loser of the race used to read the winner's
// key file before its text was written ("cannot start: a signer key is …", once in CI). The
// window was microseconds wide and this does not reliably reproduce it; it holds the outcome.
t.test('processes started at once on one folder all read one whole key', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-once-race-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const signing = fileURLToPath(new URL('../../src/runtime/logSigningKey.ts', import.meta.url));
  const token = fileURLToPath(new URL('../../src/runtime/writeTokenKey.ts', import.meta.url));
  const script = [
    `const { loadLogSigner } = await import(${JSON.stringify(signing)});`,
    `const { loadWriteTokenKey } = await import(${JSON.stringify(token)});`,
    `const dataDir = ${JSON.stringify(dir)};`,
    `const signer = loadLogSigner({ logSigningKey: null, logOrigin: 'race.example/log', dataDir });`,
    `const key = loadWriteTokenKey({ writeTokenKey: null, dataDir });`,
    'console.log(JSON.stringify([signer.publicKey.toString("base64"), key.toString("base64")]));',
  ].join('\n');
  const args = [...typescriptExecArgv(), '--input-type=module', '-e', script];
  const outputs = await Promise.all(Array.from({ length: 6 }, () => run(process.execPath, args, { timeout: 60_000 })));
  const keys = new Set(outputs.map(({ stdout }) => stdout.trim()));
  t.equal(keys.size, 1, 'one signing key and one write-token key for all six');
  t.same(readdirSync(dir).sort(), ['log-signing.key', 'write-token.key'], 'no file of their own left');
});
