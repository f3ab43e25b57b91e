import { writeFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { newCosignerKey, openCosignature, parseCosignatureVerifierKey } from '../../src/domain/cosignature.js';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { leafHash, verifyInclusion } from '../../src/domain/merkleTree.js';
import { noteSignerFromSeed, openNote, parseNoteVerifierKey, signerKeyString, verifierKeyString } from '../../src/domain/signedNote.js';
import { fixtureText } from '../helpers/fixtures.js';
import { logLines, startTestApp } from '../helpers/testApp.js';
import { startTestWitness, type TestWitness } from '../helpers/testWitness.js';

const seed = Buffer.alloc(32, 7);
const signer = noteSignerFromSeed('matchlog.test/log', seed);
const logKey = verifierKeyString(signer);
const logVerifier = parseNoteVerifierKey(logKey);

interface Receipt {
  logIndex: number;
  entry: string;
  checkpoint: string;
  inclusionProof: string[];
  cosigned: boolean;
  proofUrl: string;
}

/** A server whose log submits to `witnesses`, listening on loopback. */
async function serve(t: Test, witnesses: TestWitness[], env: Record<string, string> = {}) {
  const started = await startTestApp(t, {
    LOG_SIGNING_KEY: signerKeyString(signer, seed),
    LOG_WITNESSES: JSON.stringify(witnesses.map(({ url, key }) => ({ url, key }))),
    ...env,
  });
  const base = await started.app.listen({ port: 0, host: '127.0.0.1' });
  const put = async (id: string, n: number) => {
    const response = await fetch(`${base}/api/matches/${id}`, {
      method: 'PUT',
      body: fixtureText({ seed: n, actions: 5, id }),
      headers: { 'content-type': 'application/json' },
    });
    return { status: response.status, receipt: ((await response.json()) as { receipt: Receipt }).receipt };
  };
  const checkpoint = async () => {
    const response = await fetch(`${base}/api/log/checkpoint`);
    const note = await response.text();
    const opened = openNote(note, logVerifier);
    const parsed = 'error' in opened ? null : parseCheckpointText(opened.text);
    return { status: response.status, note, size: parsed === null || 'error' in parsed ? -1 : parsed.size };
  };
  return { ...started, base, put, checkpoint };
}

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const verifies = (receipt: Receipt, note: string) => {
  const opened = openNote(note, logVerifier);
  if ('error' in opened) return false;
  const body = parseCheckpointText(opened.text);
  if ('error' in body) return false;
  const proof = receipt.inclusionProof.map((hash) => Buffer.from(hash, 'base64'));
  return verifyInclusion(leafHash(receipt.entry), receipt.logIndex, body.size, proof, body.rootHash);
};

async function audit(base: string, state: string, extra: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['audit', base, '--key', logKey, '--state', state, ...extra], { out: (s) => (stdout += s), err: (s) => (stderr += s), env: {} });
  return { code, stdout, stderr };
}

t.test('quorum reached: the checkpoint and the receipts carry cosignatures that verify, and audit --witness passes', async (t) => {
  const w1 = await startTestWitness(t, 'witness-one.test', logVerifier);
  const w2 = await startTestWitness(t, 'witness-two.test', logVerifier);
  const { base, put, checkpoint, dataDir } = await serve(t, [w1, w2]);

  const { status, receipt } = await put('cosigned', 1);
  t.equal(status, 200);
  t.equal(receipt.cosigned, true, 'the receipt waited for the cosigned checkpoint');
  t.ok(verifies(receipt, receipt.checkpoint), "the receipt's proof verifies in its cosigned checkpoint");
  for (const witness of [w1, w2])
    t.notOk('error' in openCosignature(receipt.checkpoint, parseCosignatureVerifierKey(witness.key)), `${witness.name} cosigned it`);

  const latest = await checkpoint();
  t.equal(latest.status, 200);
  t.ok(latest.size > receipt.logIndex);
  for (const witness of [w1, w2]) {
    const opened = openCosignature(latest.note, parseCosignatureVerifierKey(witness.key));
    t.ok('time' in opened && Math.abs(opened.time - Date.now() / 1000) < 60, `${witness.name}'s cosignature on the served checkpoint verifies, with its time`);
  }

  const later = (await (await fetch(`${base}${new URL(receipt.proofUrl).pathname}`)).json()) as { checkpoint: string; inclusionProof: string[] };
  t.ok(
    verifies({ ...receipt, inclusionProof: later.inclusionProof }, later.checkpoint),
    "the receipt's proofUrl answers a cosigned checkpoint and a proof in it",
  );

  const state = `${dataDir}/auditor.json`;
  const passed = await audit(base, state, ['--witness', w1.key, '--witness', w2.key, '--max-age', '10m']);
  t.equal(passed.code, 0, passed.stderr);
  t.match(passed.stdout, /cosignature: witness-one\.test at \d{4}-\d\d-\d\dT.*Z \(\d+ s ago\)/);
  t.match(passed.stdout, /cosignature: witness-two\.test at /);

  const stranger = newCosignerKey('witness-three.test').verifierKey;
  const short = await audit(base, state, ['--witness', w1.key, '--witness', w2.key, '--witness', stranger]);
  t.equal(short.code, 1);
  t.match(short.stderr, /FAILED witnesses: the latest checkpoint carries 2 of the 3 cosignature\(s\) required/);
  const quorumOfTwo = await audit(base, state, ['--witness', w1.key, '--witness', w2.key, '--witness', stranger, '--quorum', '2']);
  t.equal(quorumOfTwo.code, 0, 'two of three pass with --quorum 2');
});

t.test('cosignatures older than --max-age fail the audit', async (t) => {
  const w1 = await startTestWitness(t, 'witness-slow-clock.test', logVerifier);
  w1.clockOffsetSeconds = -3 * 3600;
  const { base, put, dataDir } = await serve(t, [w1]);
  t.equal((await put('old', 1)).receipt.cosigned, true);
  const stale = await audit(base, `${dataDir}/a.json`, ['--witness', w1.key, '--max-age', '1h']);
  t.equal(stale.code, 1);
  t.match(stale.stderr, /FAILED freshness: only 0 of the 1 cosignature\(s\) required were made within 3600 s/);
  t.equal((await audit(base, `${dataDir}/a.json`, ['--witness', w1.key, '--max-age', '4h'])).code, 0);
});

t.test('a witness that is down: writes succeed at once, cosigning waits for it, then catches up', async (t) => {
  const w1 = await startTestWitness(t, 'witness-up.test', logVerifier);
  const w2 = await startTestWitness(t, 'witness-down.test', logVerifier);
  const { put, checkpoint, logs } = await serve(t, [w1, w2]);
  t.equal((await put('before', 1)).receipt.cosigned, true);
  const cosignedBefore = (await checkpoint()).size;

  await w2.down();
  const started = Date.now();
  for (let i = 0; i < 5; i += 1) {
    const { status, receipt } = await put(`during-${i}`, i);
    t.equal(status, 200);
    t.ok(verifies(receipt, receipt.checkpoint), "the receipt still proves the write, in the log's own checkpoint");
    t.equal(receipt.cosigned, false);
  }
  t.ok(Date.now() - started < 3000, `five writes took ${Date.now() - started} ms: none waited for the witness`);
  t.equal((await checkpoint()).size, cosignedBefore, 'the served checkpoint stays the last one the quorum cosigned');
  t.ok(logLines<{ msg: string; witness?: string }>(logs).some((line) => line.msg === 'witness: unreachable' && line.witness === 'witness-down.test'));

  await w2.up();
  t.ok(await eventually(async () => (await checkpoint()).size > cosignedBefore + 4), 'once it is back, the newest tree is cosigned');
});

t.test('409: a witness that knows another size answers it, and the log resends with the proof from that size', async (t) => {
  const w1 = await startTestWitness(t, 'witness-conflict.test', logVerifier);
  const { put, checkpoint } = await serve(t, [w1]);
  const first = await put('one', 1);
  t.equal(first.receipt.cosigned, true);
  const firstBody = parseCheckpointText(first.receipt.checkpoint.slice(0, first.receipt.checkpoint.indexOf('\n\n') + 1));
  if ('error' in firstBody) throw new Error(firstBody.error);
  await put('two', 2);
  // As if another process of this log had submitted only the first tree to it.
  w1.forget(firstBody.size, firstBody.rootHash);
  w1.requests.length = 0;
  const third = await put('three', 3);
  t.equal(third.receipt.cosigned, true);
  t.match(w1.requests, [{ status: 409 }, { old: firstBody.size, status: 200 }], 'a 409, then the request from the size it named');
  t.equal((await checkpoint()).size, third.receipt.logIndex + 1);
});

t.test('a witness that refuses (another log key: 403) is logged; with a quorum of one the other cosigns', async (t) => {
  const w1 = await startTestWitness(t, 'witness-ok.test', logVerifier);
  const other = noteSignerFromSeed('matchlog.test/log', Buffer.alloc(32, 9));
  const w2 = await startTestWitness(t, 'witness-other-log.test', parseNoteVerifierKey(verifierKeyString(other)));
  const { put, logs } = await serve(t, [w1, w2], { LOG_WITNESS_QUORUM: '1' });
  const { status, receipt } = await put('refused', 1);
  t.equal(status, 200);
  t.equal(receipt.cosigned, true, 'the quorum of one cosigned');
  t.ok('error' in openCosignature(receipt.checkpoint, parseCosignatureVerifierKey(w2.key)), 'the refusing witness has no line');
  t.ok(
    await eventually(async () =>
      logLines<{ msg: string; status?: number }>(logs).some((line) => line.msg === 'witness: refused the checkpoint' && line.status === 403),
    ),
  );
});

t.test(
  'a receipt proved by a third party with the log key and a witness key, no earlier state: in the log by a witnessed time, not rewritten since',
  async (t) => {
    const w1 = await startTestWitness(t, 'witness-receipt.test', logVerifier);
    const { put, base, dataDir } = await serve(t, [w1]);
    const { receipt } = await put('proved', 1);
    t.equal(receipt.cosigned, true);
    for (let i = 0; i < 3; i += 1) await put(`later-${i}`, 10 + i);
    const file = `${dataDir}/receipt.json`;
    writeFileSync(file, JSON.stringify({ receipt }));
    const verify = async (path: string, witnesses: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await runCli(['verify-receipt', base, '--receipt', path, '--key', logKey, ...witnesses.flatMap((key) => ['--witness', key])], {
        out: (s) => (stdout += s),
        err: (s) => (stderr += s),
        env: {},
      });
      return { code, stdout, stderr };
    };
    const proved = await verify(file, [w1.key]);
    t.equal(proved.code, 0, proved.stderr);
    t.match(proved.stdout, /cosignature: witness-receipt\.test at /);
    t.match(proved.stdout, /witnessed: in the log by \d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    t.match(proved.stdout, /consistency: the log only grew since, to \d+ entries, cosigned: nobody rewrote the entry\nreceipt verified\n$/);
    const forged = `${dataDir}/forged.json`;
    writeFileSync(forged, JSON.stringify({ receipt: { ...receipt, entry: receipt.entry.replace(/"revision":\d+/, '"revision":7') } }));
    const refused = await verify(forged, [w1.key]);
    t.equal(refused.code, 1);
    t.match(refused.stderr, /^FAILED inclusion: entry \d+ is not in the receipt's checkpoint/);
    const unknown = await verify(file, [newCosignerKey('witness-never-asked.test').verifierKey]);
    t.equal(unknown.code, 1);
    t.match(unknown.stderr, /^FAILED witnesses: the receipt's checkpoint carries 0 of the 1 cosignature\(s\) required/);
  },
);
