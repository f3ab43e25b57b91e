import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { isKeyName } from './signedNote.js';

/**
 * C2SP tlog-cosignature `cosignature/v1` (c2sp.org/tlog-cosignature) with Ed25519 keys: a witness
 * signs `cosignature/v1\ntime <seconds>\n` followed by the whole checkpoint body (origin, size,
 * root hash and any extension lines, with the final newline). The key hash is the first 4 bytes of
 * SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key); a cosignature line is
 * `— <name> <base64(key hash ‖ 8-byte big-endian time ‖ 64-byte signature)>` (no trailing newline).
 * Key strings are Go's (transparency-dev/formats/note): the verifier key
 * `<name>+<8 hex>+<base64(0x04 ‖ public key)>`, the signer key `PRIVATE+KEY+<name>+<8 hex>+<base64(0x04 ‖ seed)>`.
 */

const COSIGNATURE_V1 = 0x04;
/** DER of a PKCS #8 Ed25519 private key up to its 32-byte seed. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** DER of an SPKI Ed25519 public key up to its 32 bytes. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** Times above this cannot be held exactly in a number. */
const MAX_TIME = Number.MAX_SAFE_INTEGER;

export interface Cosigner {
  name: string;
  keyHash: Buffer;
  privateKey: KeyObject;
  publicKey: Buffer;
}

export interface CosignatureVerifier {
  name: string;
  keyHash: Buffer;
  publicKey: KeyObject;
}

const cosignerKeyHash = (name: string, publicKey: Buffer) =>
  createHash('sha256')
    .update(name)
    .update(Buffer.from([0x0a, COSIGNATURE_V1]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);

/** Splits `text` at its first `count - 1` "+" (names hold none; base64 may); null with fewer fields. */
function plusFields(text: string, count: number): string[] | null {
  const fields = text.split('+');
  if (fields.length < count) return null;
  return [...fields.slice(0, count - 1), fields.slice(count - 1).join('+')];
}

/** The key bytes after a 0x04 type byte, or an error. */
function typedKey(base64: string, what: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== 33 || bytes[0] !== COSIGNATURE_V1) throw new Error(`the ${what} key is not an Ed25519 cosignature/v1 key (type 0x04)`);
  return bytes.subarray(1);
}

/** A cosigner from a seed of 32 bytes. */
export function cosignerFromSeed(name: string, seed: Buffer): Cosigner {
  if (!isKeyName(name)) throw new Error(`"${name}" cannot name a witness key: no spaces, no "+"`);
  if (seed.length !== 32) throw new Error('an Ed25519 seed has 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
  return { name, keyHash: cosignerKeyHash(name, publicKey), privateKey, publicKey };
}

/** The signer key string (note.NewSignerForCosignatureV1's format) of a cosigner made from `seed`. */
export const cosignerKeyString = (cosigner: Cosigner, seed: Buffer) =>
  `PRIVATE+KEY+${cosigner.name}+${cosigner.keyHash.toString('hex')}+${Buffer.concat([Buffer.from([COSIGNATURE_V1]), seed]).toString('base64')}`;

/** The verifier key string (note.NewVerifierForCosignatureV1's format). */
export const cosignatureVerifierKeyString = (cosigner: Pick<Cosigner, 'name' | 'keyHash' | 'publicKey'>) =>
  `${cosigner.name}+${cosigner.keyHash.toString('hex')}+${Buffer.concat([Buffer.from([COSIGNATURE_V1]), cosigner.publicKey]).toString('base64')}`;

/** A fresh witness key: its cosigner, its signer key string (secret) and its verifier key string. */
export function newCosignerKey(name: string): { cosigner: Cosigner; signerKey: string; verifierKey: string } {
  const seed = randomBytes(32);
  const cosigner = cosignerFromSeed(name, seed);
  return { cosigner, signerKey: cosignerKeyString(cosigner, seed), verifierKey: cosignatureVerifierKeyString(cosigner) };
}

/** Parses a signer key string (type 0x04); throws naming what is wrong. */
export function parseCosignerKey(text: string): Cosigner {
  const parts = plusFields(text.trim(), 5);
  if (parts === null || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') throw new Error('a witness signer key is PRIVATE+KEY+<name>+<hash>+<base64 key>');
  const [, , name = '', hash = '', key = ''] = parts;
  const cosigner = cosignerFromSeed(name, typedKey(key, 'signer'));
  if (cosigner.keyHash.toString('hex') !== hash) throw new Error("the witness signer key's hash does not match its name and key");
  return cosigner;
}

/** Parses a witness verifier key string (type 0x04); throws naming what is wrong. */
export function parseCosignatureVerifierKey(text: string): CosignatureVerifier {
  const parts = plusFields(text.trim(), 3);
  const [name = '', hash = '', key = ''] = parts ?? [];
  if (parts === null || !isKeyName(name) || !/^[0-9a-f]{8}$/.test(hash)) throw new Error('a witness verifier key is <name>+<8 hex digits>+<base64 key>');
  const raw = typedKey(key, 'verifier');
  if (cosignerKeyHash(name, raw).toString('hex') !== hash) throw new Error("the witness verifier key's hash does not match its name and key");
  return { name, keyHash: Buffer.from(hash, 'hex'), publicKey: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) };
}

const signedMessage = (body: string, time: number) => Buffer.from(`cosignature/v1\ntime ${time}\n${body}`);

/**
 * The cosignature line (no trailing newline) for a checkpoint body (its note text, ending with a
 * newline, without signature lines) at `time`, whole seconds since the epoch.
 */
export function cosignatureLine(body: string, cosigner: Cosigner, time: number): string {
  if (!body.endsWith('\n')) throw new Error('a checkpoint body ends with a newline');
  if (!Number.isSafeInteger(time) || time < 0) throw new Error('a cosignature time is whole seconds since the epoch');
  const timeBytes = Buffer.alloc(8);
  timeBytes.writeBigUInt64BE(BigInt(time));
  const signature = sign(null, signedMessage(body, time), cosigner.privateKey);
  return `\u2014 ${cosigner.name} ${Buffer.concat([cosigner.keyHash, timeBytes, signature]).toString('base64')}`;
}

/**
 * The time of a cosignature line (with or without its newline) if `verifier` made it over `body`;
 * null if the line is another key's, malformed, or does not verify.
 */
export function verifyCosignatureLine(line: string, verifier: CosignatureVerifier, body: string): number | null {
  const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)\n?$/u.exec(line);
  if (!match || match[1] !== verifier.name || !body.endsWith('\n')) return null;
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length !== 4 + 8 + 64 || !bytes.subarray(0, 4).equals(verifier.keyHash)) return null;
  const time = bytes.readBigUInt64BE(4);
  if (time > BigInt(MAX_TIME)) return null;
  return verify(null, signedMessage(body, Number(time)), verifier.publicKey, bytes.subarray(12)) ? Number(time) : null;
}

/**
 * The time of `verifier`'s cosignature on a signed checkpoint note (body, blank line, signature
 * lines), or an error saying why there is none that verifies. Other signature lines are ignored.
 */
export function openCosignature(note: string, verifier: CosignatureVerifier): { time: number } | { error: string } {
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return { error: 'not a signed note (no blank line before its signatures)' };
  const body = note.slice(0, split + 1);
  let seen = false;
  for (const line of note.slice(split + 2, -1).split('\n')) {
    if (!line.startsWith(`\u2014 ${verifier.name} `)) continue;
    seen = true;
    const time = verifyCosignatureLine(line, verifier, body);
    if (time !== null) return { time };
  }
  return { error: seen ? `the cosignature by ${verifier.name} does not verify` : `the checkpoint has no cosignature by ${verifier.name}` };
}
