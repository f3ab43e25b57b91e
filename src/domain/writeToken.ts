import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Write tokens are chosen by the client device. The format is checked only where a token is
 * bound (the creating POST): 8-1024 visible ASCII characters, so hex, base64, UUIDs and
 * passphrases all fit. Everywhere else a token is only compared (spec section 3).
 */
const writeTokenRegex = /^[\x21-\x7E]{8,1024}$/;

export const WRITE_TOKEN_RULE =
  'X-Write-Token must be 8-1024 visible ASCII characters (0x21-0x7E, no spaces); use at least 128 random bits, e.g. a UUID v4 or 32 hex digits';

export function isWellFormedWriteToken(value: unknown): value is string {
  return typeof value === 'string' && writeTokenRegex.test(value);
}

/**
 * Erasure through the API is irreversible, so it asks more of a token than a write does: at least
 * 22 characters, the length of 128 random bits in base64url (32 hex digits and a UUID are longer).
 * A shorter token is refused before it is compared, so DELETE is no oracle for guessing a short
 * one (docs/decisions.md); a match protected with one is erased by the operator (matchlog erase).
 */
export const ERASE_TOKEN_MIN = 22;

/** A token as the decider sees it: its hash for this match, whether it could be bound, and whether it is long enough to erase. */
export interface PresentedWriteToken {
  hash: string;
  wellFormed: boolean;
  longEnoughToErase: boolean;
}

/** What the decider is given of a token a client presented. */
export function presentWriteToken(hashWriteToken: WriteTokenHasher, matchId: string, token: string): PresentedWriteToken {
  return { hash: hashWriteToken(matchId, token), wellFormed: isWellFormedWriteToken(token), longEnoughToErase: token.length >= ERASE_TOKEN_MIN };
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
