import t from 'tap';
import {
  cosignatureLine,
  cosignatureVerifierKeyString,
  cosignerFromSeed,
  cosignerKeyString,
  newCosignerKey,
  openCosignature,
  parseCosignatureVerifierKey,
  parseCosignerKey,
  verifyCosignatureLine,
} from '../../src/domain/cosignature.js';
import { noteSignerFromSeed, parseNoteVerifierKey, signNote, verifierKeyString } from '../../src/domain/signedNote.js';

// Fixed vectors; test/log/goVerifier.test.ts has transparency-dev/formats verify the same lines.
const seed = Buffer.alloc(32, 7);
const signerKey = 'PRIVATE+KEY+witness.example/w1+aa4a09d1+BAcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH';
const verifierKey = 'witness.example/w1+aa4a09d1+BOpKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs';
const body = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const line = '\u2014 witness.example/w1 qkoJ0QAAAABkGFDLWr4Jea05CAgwNVtwky0Jgz6WfX0QJgM//FkB/W9BoT9TX0DkTxG+2cT4p/ViKNhUM/SnUwFcYQzugGFQ15LwDw==';

t.test('a witness key made from a seed has the fixed signer and verifier key strings (type 0x04)', async (t) => {
  const cosigner = cosignerFromSeed('witness.example/w1', seed);
  t.equal(cosignerKeyString(cosigner, seed), signerKey);
  t.equal(cosignatureVerifierKeyString(cosigner), verifierKey);
  t.equal(cosignatureVerifierKeyString(parseCosignerKey(signerKey)), verifierKey);
  t.same(parseCosignatureVerifierKey(verifierKey).keyHash, cosigner.keyHash);
});

t.test('a cosignature signs "cosignature/v1", the time and the checkpoint body: the fixed line', async (t) => {
  t.equal(cosignatureLine(body, parseCosignerKey(signerKey), 1679315147), line);
  t.equal(verifyCosignatureLine(line, parseCosignatureVerifierKey(verifierKey), body), 1679315147);
  t.equal(verifyCosignatureLine(`${line}\n`, parseCosignatureVerifierKey(verifierKey), body), 1679315147, 'a trailing newline is allowed');
});

t.test('a cosignature does not verify for another body, time, name or key', async (t) => {
  const verifier = parseCosignatureVerifierKey(verifierKey);
  t.equal(verifyCosignatureLine(line, verifier, body.replace('20852163', '20852164')), null, 'another size');
  t.equal(verifyCosignatureLine(line, verifier, `${body}extension\n`), null, 'an extension line is signed too');
  const bytes = Buffer.from(line.split(' ')[2]!, 'base64');
  bytes.writeBigUInt64BE(1679315148n, 4);
  t.equal(verifyCosignatureLine(`\u2014 witness.example/w1 ${bytes.toString('base64')}`, verifier, body), null, 'another time');
  t.equal(verifyCosignatureLine(line.replace('w1', 'w2'), verifier, body), null, 'another name');
  t.equal(verifyCosignatureLine(line, parseCosignatureVerifierKey(newCosignerKey('witness.example/w1').verifierKey), body), null, 'another key');
  t.equal(verifyCosignatureLine('\u2014 witness.example/w1 AAAA', verifier, body), null, 'too short');
});

t.test("a log's note key (type 0x01) is not a witness key, nor the other way round", async (t) => {
  const noteKey = verifierKeyString(noteSignerFromSeed('witness.example/w1', seed));
  t.throws(() => parseCosignatureVerifierKey(noteKey), /type 0x04/);
  t.throws(() => parseNoteVerifierKey(verifierKey), /not an Ed25519 key/);
  t.throws(() => parseCosignatureVerifierKey('witness.example/w1+00000000+BOpKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs'), /hash does not match/);
  t.throws(() => parseCosignerKey(signerKey.replace('aa4a09d1', 'aa4a09d2')), /hash does not match/);
  t.throws(() => cosignerFromSeed('two words', seed), /cannot name/);
});

t.test("a checkpoint note's cosignature is found among its signatures, and its time read", async (t) => {
  const log = noteSignerFromSeed('example.com/behind-the-sofa', Buffer.alloc(32, 1));
  const witness = newCosignerKey('witness.example/w2');
  const note = `${signNote(body, log)}${cosignatureLine(body, witness.cosigner, 1700000000)}\n${line}\n`;
  t.same(openCosignature(note, parseCosignatureVerifierKey(witness.verifierKey)), { time: 1700000000 });
  t.same(openCosignature(note, parseCosignatureVerifierKey(verifierKey)), { time: 1679315147 });
  t.match(openCosignature(signNote(body, log), parseCosignatureVerifierKey(verifierKey)), { error: /no cosignature by witness.example\/w1/ });
  t.match(openCosignature(note.replace('20852163', '1'), parseCosignatureVerifierKey(verifierKey)), { error: /does not verify/ });
});

t.test('a time is whole non-negative seconds', async (t) => {
  const cosigner = parseCosignerKey(signerKey);
  t.throws(() => cosignatureLine(body, cosigner, 1.5));
  t.throws(() => cosignatureLine(body, cosigner, -1));
  t.throws(() => cosignatureLine('no newline', cosigner, 1));
});
