import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseCosignatureVerifierKey, verifyCosignatureLine } from '../../src/domain/cosignature.js';
import { checkpointText } from '../../src/domain/logCheckpoint.js';
import { consistencyRanges, leafHash, nodeHash, rangeHash, type SubtreeRef } from '../../src/domain/merkleTree.js';
import { noteSignerFromSeed, signerKeyString, signNote, verifierKeyString } from '../../src/domain/signedNote.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

const matchlog = fileURLToPath(new URL('../../src/bin/matchlog.ts', import.meta.url));
const log = noteSignerFromSeed('league.example/log', Buffer.alloc(32, 3));
const impostor = noteSignerFromSeed('league.example/log', Buffer.alloc(32, 4));
const stranger = noteSignerFromSeed('other.example/log', Buffer.alloc(32, 5));

/** A log of `n` leaves: its roots and consistency proofs, computed from the leaves. */
const leaves = Array.from({ length: 64 }, (_, i) => leafHash(`entry ${i}`));
const subtree = ({ level, index }: SubtreeRef): Buffer =>
  level === 0 ? leaves[index]! : nodeHash(subtree({ level: level - 1, index: 2 * index }), subtree({ level: level - 1, index: 2 * index + 1 }));
const root = (size: number) => rangeHash([0, size], subtree);
const proof = (from: number, to: number) => consistencyRanges(from, to).map((range) => rangeHash(range, subtree));
const body = (size: number, origin = log.name, rootHash = root(size)) => checkpointText({ origin, size, rootHash });
const request = (old: number, size: number, { signer = log, hashes = proof(old, size), text = body(size, signer.name) } = {}) =>
  `old ${old}\n${hashes.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${signNote(text, signer)}`;

interface Witness {
  key: string;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts `matchlog witness` as a real process on a free port; resolves once it listens. */
function startWitness(dir: string, name = 'witness.example/w1', logKeys = [verifierKeyString(log), verifierKeyString(stranger)]): Promise<Witness> {
  const args = ['witness', '--dir', dir, '--host', '127.0.0.1', '--port', '0', '--name', name, ...logKeys.flatMap((key) => ['--log', key])];
  const child = spawn(process.execPath, [...typescriptExecArgv(), matchlog, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const url = /^witness listening on (http:\S+)/.exec(line)?.[1];
      if (url !== undefined) resolve({ key: lines[0]!.replace(/^witness key: /, ''), url, child, exited });
    });
    void exited.then((code) => reject(new Error(`the witness exited (${code}): ${lines.join('\n')}\n${stderr}`)));
  });
}

const post = async (url: string, text: string) => {
  const response = await fetch(url, { method: 'POST', body: text });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

t.test('a witness prints its key first, cosigns a log that grows and answers each refusal as C2SP tlog-witness says', async (t) => {
  const dir = tempDataDir(t, 'matchlog-witness-');
  const witness = await startWitness(dir);
  t.teardown(() => witness.child.kill('SIGKILL'));
  t.match(witness.key, /^witness\.example\/w1\+[0-9a-f]{8}\+/);
  t.equal(Buffer.from(witness.key.split('+')[2]!, 'base64')[0], 0x04, 'a cosignature/v1 key (type 0x04)');
  t.equal(statSync(join(dir, 'witness.key')).mode & 0o777, 0o600);
  const verifier = parseCosignatureVerifierKey(witness.key);

  const first = await post(witness.url, request(0, 5));
  t.equal(first.status, 200, first.text);
  t.match(first.text, /^\u2014 witness\.example\/w1 \S+\n$/u);
  const time = verifyCosignatureLine(first.text, verifier, body(5));
  t.ok(time !== null && Math.abs(time - Date.now() / 1000) < 60, 'the cosignature verifies, timed now');

  t.same(await post(witness.url, request(0, 8)), { status: 409, type: 'text/x.tlog.size', text: '5\n' }, 'an old size that is not the latest: 409 with it');
  t.match(await post(witness.url, request(5, 8, { hashes: proof(5, 8).reverse() })), { status: 422 }, 'a bad consistency proof: 422');
  t.match(await post(witness.url, request(5, 8, { text: body(8, log.name, root(9)) })), { status: 422 }, 'a root the proof does not reach: 422');
  const grown = await post(witness.url, request(5, 8));
  t.equal(grown.status, 200, grown.text);
  t.not(verifyCosignatureLine(grown.text, verifier, body(8)), null);
  t.match(
    await post(witness.url, request(0, 3, { signer: noteSignerFromSeed('nobody.example/log', Buffer.alloc(32, 6)) })),
    { status: 404 },
    'an unknown origin: 404',
  );
  t.match(await post(witness.url, request(8, 9, { signer: impostor })), { status: 403 }, "another key under the log's name: 403");
  t.match(await post(witness.url, request(9, 8, { hashes: [] })), { status: 400 }, 'an old size above the size: 400');
  t.match(await post(witness.url, 'old 8\n\nnot a note'), { status: 400 }, 'a malformed body: 400');
  t.match(await post(witness.url, `old 08\n\n${signNote(body(8), log)}`), { status: 400 }, 'a leading zero: 400');
  t.match(await post(witness.url, request(8, 8, { text: body(8, log.name, root(7)) })), { status: 409, text: '8\n' }, 'the same size with another root: 409');
  const again = await post(witness.url, request(8, 8));
  t.equal(again.status, 200, 'the same checkpoint again is cosigned again');
  t.match(await post(`${witness.url}x`, request(8, 8)), { status: 404 });
  t.match(await fetch(witness.url), { status: 405 });
  const other = await post(witness.url, request(0, 2, { signer: stranger }));
  t.equal(other.status, 200, 'each origin has its own latest size');
});

t.test('what a witness cosigned survives a SIGKILL and a restart, under the same key', async (t) => {
  const dir = tempDataDir(t, 'matchlog-witness-');
  const before = await startWitness(dir);
  t.equal((await post(before.url, request(0, 13))).status, 200);
  before.child.kill('SIGKILL');
  await before.exited;
  const after = await startWitness(dir);
  t.teardown(() => after.child.kill('SIGKILL'));
  t.equal(after.key, before.key);
  t.same(await post(after.url, request(0, 20)), { status: 409, type: 'text/x.tlog.size', text: '13\n' });
  t.equal((await post(after.url, request(13, 20))).status, 200);

  after.child.kill('SIGTERM');
  t.equal(await after.exited, 0, 'SIGTERM stops it cleanly');
  await t.rejects(startWitness(dir, 'witness.example/w2'), /named witness\.example\/w1, not witness\.example\/w2/, 'its key is not renamed');
});

t.test('two submissions for one origin at once: one is cosigned, the other told the new size', async (t) => {
  const dir = tempDataDir(t, 'matchlog-witness-');
  const witness = await startWitness(dir);
  t.teardown(() => witness.child.kill('SIGKILL'));
  t.equal((await post(witness.url, request(0, 10))).status, 200);
  for (let round = 0; round < 5; round += 1) {
    const from = 10 + round * 10;
    const answers = await Promise.all([post(witness.url, request(from, from + 4)), post(witness.url, request(from, from + 10))]);
    const won = answers.findIndex((answer) => answer.status === 200);
    t.same(answers.map((answer) => answer.status).sort(), [200, 409]);
    t.equal(answers[1 - won]!.text, `${from + (won === 0 ? 4 : 10)}\n`, 'the loser hears the winner’s size');
    if (won === 0) t.equal((await post(witness.url, request(from + 4, from + 10))).status, 200);
  }
});

/** Built by .ci/run from test/verifier (Go: golang.org/x/mod/sumdb/note, transparency-dev/formats and merkle). */
const goVerifier = process.env.MATCHLOG_GO_VERIFIER;

t.test(
  'a Go witness client written against the C2SP text gets cosignatures that transparency-dev/formats verifies',
  {
    skip: goVerifier !== undefined && existsSync(goVerifier) ? false : 'MATCHLOG_GO_VERIFIER names no built Go verifier',
  },
  async (t) => {
    const seed = Buffer.alloc(32, 9);
    const goLog = noteSignerFromSeed('go-client.example/log', seed);
    const witness = await startWitness(tempDataDir(t, 'matchlog-witness-'), 'witness.example/w1', [verifierKeyString(goLog)]);
    t.teardown(() => witness.child.kill('SIGKILL'));
    const prefix = witness.url.replace(/\/add-checkpoint$/, '');
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(goVerifier!, ['-submit', prefix, '-log-signer', signerKeyString(goLog, seed), '-witness', witness.key], (error, out) =>
        resolve({ code: error === null ? 0 : 1, stdout: out }),
      ),
    );
    t.equal(code, 0, stdout);
    t.match(stdout, /ok a stale old size is answered 409 text\/x\.tlog\.size/);
    t.match(stdout, /ok a bad consistency proof is answered 422/);
    t.match(stdout, /ok the witness cosigned the grown checkpoint \(size 7\), and its cosignature verifies/);
  },
);
