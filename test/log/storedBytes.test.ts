import { createHash } from 'node:crypto';
import t from 'tap';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { parseLogEntry } from '../../src/domain/logEntry.js';
import { leafHash, verifyInclusion } from '../../src/domain/merkleTree.js';
import { openNote, parseNoteVerifierKey } from '../../src/domain/signedNote.js';
import { startTestApp } from '../helpers/testApp.js';

// Issue 59, F6 and F7: what is stored, digested and served of a body, stated exactly (docs/auditing.md, The stored bytes); a receipt that stands alone.

t.test('the stored bytes are the body without a leading BOM and surrounding white space, digested and served byte for byte', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const inner = '{"id":"bytes-1","note":"caf\u00e9 \u00a0 spaced"}';
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(` \t\r\n${inner}\n\t `)]);
  const created = await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(created.status, 201);
  const { receipt } = (await created.json()) as { receipt: { entry: string } };
  const served = await fetch(`${base}/api/matches/bytes-1/payload?revision=0`);
  const bytes = Buffer.from(await served.arrayBuffer());
  t.same(bytes, Buffer.from(inner), 'served: the inner bytes, white space inside kept');
  const salt = Buffer.from(served.headers.get('matchlog-payload-salt') ?? '', 'base64');
  const digest = createHash('sha256').update(salt).update(bytes).digest('hex');
  t.match(receipt.entry, `"payloadSha256":"${digest}"`, 'and digested into the entry');
  const plain = Buffer.from('{"id":"bytes-2","a":1}');
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: plain })).status, 201);
  t.same(Buffer.from(await (await fetch(`${base}/api/matches/bytes-2/payload?revision=0`)).arrayBuffer()), plain, 'a body without either comes back as sent');
});

t.test('F7: a receipt stands alone: with the uploaded bytes it proves the upload after the match is erased', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = 'receipt-token-0123456789abcdef';
  const uploaded = '{"id":"kept-proof","sport":"volleyball","score":[25,23]}';
  const created = await fetch(`${base}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-write-token': token },
    body: uploaded,
  });
  const { receipt } = (await created.json()) as {
    receipt: { logIndex: number; entry: string; checkpoint: string; inclusionProof: string[]; payloadSalt: string };
  };
  t.type(receipt.payloadSalt, 'string', 'the receipt carries the salt');
  t.equal((await fetch(`${base}/api/matches/kept-proof`, { method: 'DELETE', headers: { 'x-write-token': token } })).status, 200);
  t.equal((await fetch(`${base}/api/matches/kept-proof/payload?revision=0`)).status, 410, 'the server keeps neither payload nor salt');
  const key = parseNoteVerifierKey((await (await fetch(`${base}/api/log/key`)).text()).trim());
  const opened = openNote(receipt.checkpoint, key);
  const checkpoint = 'error' in opened ? null : parseCheckpointText(opened.text);
  t.ok(checkpoint !== null && !('error' in checkpoint), 'its checkpoint is signed by the log key');
  if (checkpoint === null || 'error' in checkpoint) return;
  const proof = receipt.inclusionProof.map((hash) => Buffer.from(hash, 'base64'));
  t.ok(verifyInclusion(leafHash(receipt.entry), receipt.logIndex, checkpoint.size, proof, checkpoint.rootHash), 'its entry is in that tree');
  const digest = createHash('sha256').update(Buffer.from(receipt.payloadSalt, 'base64')).update(uploaded).digest('hex');
  t.equal(parseLogEntry(receipt.entry)?.payloadSha256, digest, 'and SHA-256(salt ‖ the uploaded bytes) is its payloadSha256');
});
