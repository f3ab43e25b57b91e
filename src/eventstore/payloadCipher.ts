import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Event data sealed with a stream's own key (AES-256-GCM, node:crypto), so that deleting the
 * key makes every version of the stream unreadable (docs/decisions.md: erasure on EventStoreDB).
 *
 * Sealed bytes: nonce (12) ‖ ciphertext ‖ tag (16). The nonce is synthetic, as in SIV: an
 * HMAC of the event's context and plaintext under a second key derived from the stream's key.
 * The same event sealed again (a retry with the same ids) gives the same bytes; two different
 * plaintexts never share a nonce (but for a 2^-96 collision). Equal events leak only that.
 * The context (stream and event id) is authenticated: sealed data moved to another event fails.
 */
export const SEALED_WITH = 'aes-256-gcm';
export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes sealing adds to the data. */
export const SEAL_OVERHEAD = NONCE_BYTES + TAG_BYTES;

export class UnsealableDataError extends Error {
  constructor(problem: string) {
    super(`sealed data cannot be opened: ${problem}`);
    this.name = 'UnsealableDataError';
  }
}

export const newStreamKey = () => randomBytes(KEY_BYTES);

interface Subkeys {
  data: Buffer;
  nonce: Buffer;
}
const derived = new WeakMap<Buffer, Subkeys>();

function subkeys(key: Buffer): Subkeys {
  const known = derived.get(key);
  if (known) return known;
  if (key.length !== KEY_BYTES) throw new UnsealableDataError(`a key of ${key.length} bytes, not ${KEY_BYTES}`);
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `matchlog ${label}`, KEY_BYTES));
  const made = { data: derive('event data'), nonce: derive('event nonce') };
  derived.set(key, made);
  return made;
}

/** The context sealed data is bound to. */
export const sealContext = (streamId: string, eventId: string) => Buffer.from(`${streamId}\u0000${eventId}`);

export function seal(key: Buffer, context: Buffer, plain: Buffer): Buffer {
  const { data, nonce: nonceKey } = subkeys(key);
  const nonce = createHmac('sha256', nonceKey).update(context).update(plain).digest().subarray(0, NONCE_BYTES);
  const cipher = createCipheriv(SEALED_WITH, data, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(context);
  return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** The plaintext, or UnsealableDataError when the key, the context or a byte is not the sealer's. */
export function open(key: Buffer, context: Buffer, sealed: Buffer): Buffer {
  if (sealed.length < SEAL_OVERHEAD) throw new UnsealableDataError(`${sealed.length} bytes, shorter than a nonce and a tag`);
  const { data } = subkeys(key);
  const decipher = createDecipheriv(SEALED_WITH, data, sealed.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(context);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new UnsealableDataError('its tag does not match (another key, another event, or edited bytes)');
  }
}
