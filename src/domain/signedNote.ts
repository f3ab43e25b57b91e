import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys, as golang.org/x/mod/sumdb/note
 * writes and reads them: a key is named, its hash is the first 4 bytes of
 * SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), and a signature line is
 * `— <name> <base64(key hash ‖ signature)>`. Key strings are Go's: the verifier key
 * `<name>+<8 hex>+<base64(0x01 ‖ public key)>`, the signer key `PRIVATE+KEY+<name>+<8 hex>+<base64(0x01 ‖ seed)>`.
 */

const ED25519 = 0x01;
/** DER of a PKCS #8 Ed25519 private key up to its 32-byte seed. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** DER of an SPKI Ed25519 public key up to its 32 bytes. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface NoteSigner {
  name: string;
  keyHash: Buffer;
  privateKey: KeyObject;
  publicKey: Buffer;
}

export interface NoteVerifier {
  name: string;
  keyHash: Buffer;
  publicKey: KeyObject;
}

/** The first `count - 1` "+"-separated fields and the rest (base64 may hold "+"), as Go's note cuts them; null with fewer. */
function cutPlus<N extends 3 | 5>(text: string, count: N): (N extends 3 ? [string, string, string] : [string, string, string, string, string]) | null {
  const fields: string[] = [];
  let rest = text;
  while (fields.length < count - 1) {
    const at = rest.indexOf('+');
    if (at < 0) return null;
    fields.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  // Exactly `count` strings, as the type says.
  return [...fields, rest] as N extends 3 ? [string, string, string] : [string, string, string, string, string];
}

/** A key name as note allows: not empty, no space, no "+". */
export const isKeyName = (name: string) => name.length > 0 && !/[\s+]/u.test(name);

const noteKeyHash = (name: string, publicKey: Buffer) =>
  createHash('sha256')
    .update(name)
    .update(Buffer.from([0x0a, ED25519]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);

/** A signer from a seed of 32 bytes. */
export function noteSignerFromSeed(name: string, seed: Buffer): NoteSigner {
  if (!isKeyName(name)) throw new Error(`"${name}" cannot name a note key: no spaces, no "+"`);
  if (seed.length !== 32) throw new Error('an Ed25519 seed has 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
  return { name, keyHash: noteKeyHash(name, publicKey), privateKey, publicKey };
}

/** Parses a signer key string (note.NewSigner's format); throws naming what is wrong. */
export function parseNoteSignerKey(text: string): NoteSigner {
  const parts = cutPlus(text.trim(), 5);
  if (parts === null || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') throw new Error('a signer key is PRIVATE+KEY+<name>+<hash>+<base64 key>');
  const [, , name, hash, key] = parts;
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 33 || bytes[0] !== ED25519) throw new Error('the signer key is not an Ed25519 key');
  const signer = noteSignerFromSeed(name, bytes.subarray(1));
  if (signer.keyHash.toString('hex') !== hash) throw new Error("the signer key's hash does not match its name and key");
  return signer;
}

export const signerKeyString = (signer: NoteSigner, seed: Buffer) =>
  `PRIVATE+KEY+${signer.name}+${signer.keyHash.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), seed]).toString('base64')}`;

/** The verifier key string that note.NewVerifier accepts. */
export const verifierKeyString = (signer: Pick<NoteSigner, 'name' | 'keyHash' | 'publicKey'>) =>
  `${signer.name}+${signer.keyHash.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), signer.publicKey]).toString('base64')}`;

/** Parses a verifier key string; throws naming what is wrong. */
export function parseNoteVerifierKey(text: string): NoteVerifier {
  const parts = cutPlus(text.trim(), 3);
  if (parts === null) throw new Error('a verifier key is <name>+<8 hex digits>+<base64 key>');
  const [name, hash, key] = parts;
  const bytes = Buffer.from(key, 'base64');
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(hash)) throw new Error('a verifier key is <name>+<8 hex digits>+<base64 key>');
  if (bytes.length !== 33 || bytes[0] !== ED25519) throw new Error('the verifier key is not an Ed25519 key');
  const raw = bytes.subarray(1);
  if (noteKeyHash(name, raw).toString('hex') !== hash) throw new Error("the verifier key's hash does not match its name and key");
  return { name, keyHash: Buffer.from(hash, 'hex'), publicKey: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) };
}

/** Signs a note's text (it must end with a newline) with one key. */
export function signNote(text: string, signer: NoteSigner): string {
  if (!text.endsWith('\n')) throw new Error("a note's text ends with a newline");
  const signature = sign(null, Buffer.from(text), signer.privateKey);
  return `${text}\n\u2014 ${signer.name} ${Buffer.concat([signer.keyHash, signature]).toString('base64')}\n`;
}

/**
 * The text of a note if `verifier` signed it, else an error saying why not (malformed, no
 * signature by this key, a bad signature). Signatures by other keys are ignored.
 */
export function openNote(note: string, verifier: NoteVerifier): { text: string } | { error: string } {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return { error: 'not a signed note (no blank line before its signatures)' };
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  let seen = false;
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!match) return { error: `not a signature line: ${JSON.stringify(line.slice(0, 80))}` };
    const name = match[1]!;
    const bytes = Buffer.from(match[2]!, 'base64');
    if (name !== verifier.name || bytes.length < 4 || !bytes.subarray(0, 4).equals(verifier.keyHash)) continue;
    seen = true;
    if (verify(null, Buffer.from(text), verifier.publicKey, bytes.subarray(4))) return { text };
  }
  return { error: seen ? `the signature by ${verifier.name} does not verify` : `the note has no signature by ${verifier.name}` };
}
