import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Write tokens are chosen by the client device. We accept 16-256 characters from the
 * URL-safe and base64 alphabets (hex, base64, base64url and UUIDs all fit); 16 characters is
 * the floor so that a token cannot be guessed by trying.
 */
export const WRITE_TOKEN_PATTERN = '^[A-Za-z0-9._~+/=-]{16,256}$';
const writeTokenRegex = new RegExp(WRITE_TOKEN_PATTERN);

export const WRITE_TOKEN_RULE =
  'X-Write-Token must be 16-256 characters of A-Z a-z 0-9 . _ ~ + / = -';

export function isWellFormedWriteToken(value: unknown): value is string {
  return typeof value === 'string' && writeTokenRegex.test(value);
}

const HASH_SCHEME = 'hmac-sha256:v1:';

/**
 * Hashes a write token with a server-held key, salted by the match id so that a token
 * reused across matches gives different hashes. Only this hash is stored, in events and state.
 */
export function createWriteTokenHasher(key: Buffer) {
  if (key.length < 32) throw new Error('the write-token key must be at least 32 bytes');
  return (matchId: string, writeToken: string): string =>
    HASH_SCHEME + createHmac('sha256', key).update(matchId).update('\0').update(writeToken).digest('base64url');
}

export type WriteTokenHasher = ReturnType<typeof createWriteTokenHasher>;

/** Constant-time comparison of two stored-form hashes. */
export function sameWriteTokenHash(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
