import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { customAlphabet } from 'nanoid';

/**
 * Club app keys, sent by scoring apps in `X-App-Key` to authenticate club sync.
 *
 * Format: `mlk_<keyId>_<secret><checksum>`
 * - `mlk_`: says what the string is (secret scanners and people recognise it);
 * - keyId: 10 characters [0-9a-z], names the key in its club (listing, revocation, lookup);
 * - secret: 32 characters base62 (about 190 random bits);
 * - checksum: 6 characters base62 of the CRC-32 of everything before it, so a mistyped or
 *   truncated key is recognised without looking anything up.
 *
 * Only a SHA-256 hash of the whole key is stored: the key is random enough that a keyed or
 * slow hash would add nothing, and any process can verify a key without a shared secret.
 */
const APP_KEY_PREFIX = 'mlk_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newKeyId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 10);
const newSecret = customAlphabet(BASE62, 32);
const APP_KEY = /^mlk_([0-9a-z]{10})_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** How much of a key the dashboard lists, to tell keys apart: `mlk_<keyId>_` and 4 secret characters. */
const PREFIX_LENGTH = APP_KEY_PREFIX.length + 10 + 1 + 4;

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i += 1) {
    out = BASE62.charAt(n % 62) + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export interface IssuedAppKey {
  /** The key itself: shown to the admin once, never stored. */
  key: string;
  keyId: string;
  prefix: string;
  hash: string;
}

/** Writes a key from its parts, checksum included. */
export function formatAppKey(keyId: string, secret: string): string {
  const body = `${APP_KEY_PREFIX}${keyId}_${secret}`;
  return body + checksum(body);
}

export function generateAppKey(): IssuedAppKey {
  const key = formatAppKey(newKeyId(), newSecret());
  const parsed = parseAppKey(key);
  if (parsed === null) throw new Error('generated an app key that does not parse');
  return { key, keyId: parsed.keyId, prefix: key.slice(0, PREFIX_LENGTH), hash: hashAppKey(key) };
}

/** The key's id when the text has the app-key format and its checksum is right; otherwise null. */
export function parseAppKey(text: string): { keyId: string } | null {
  const match = APP_KEY.exec(text);
  if (match === null) return null;
  const [, keyId = '', secret = '', sum = ''] = match;
  return checksum(`${APP_KEY_PREFIX}${keyId}_${secret}`) === sum ? { keyId } : null;
}

const HASH_SCHEME = 'sha256:';

export function hashAppKey(key: string): string {
  return HASH_SCHEME + createHash('sha256').update(key).digest('base64url');
}

/** Constant-time comparison of a stored hash with the hash of a presented key. */
export function sameAppKeyHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
