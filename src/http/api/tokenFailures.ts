import { createHash } from 'node:crypto';
import { DomainError, tooManyRequests } from '../../domain/errors.js';
import { createLru } from '../../platform/lru.js';

/** A limit of so many requests per window (WRITE_RATE_LIMIT, TOKEN_FAILURE_LIMIT). */
export interface RateLimit {
  max: number;
  windowMs: number;
  /** As configured, for messages: "300/minute". */
  text: string;
}

/** Matches x addresses remembered at once; the oldest are forgotten first. */
const TRACKED = 100_000;

/** A presented token as the throttle keeps it: a short hash, never the token; a missing header is a token of its own. */
const tokenKey = (token: string | null) => (token === null ? '-' : createHash('sha256').update(token).digest('base64url').slice(0, 16));

interface FailureWindow {
  endsAt: number;
  /** 403s in this window by presented token: at most `limit.max` tokens are kept (the address is throttled by then). */
  tokens: Map<string, number>;
}

/**
 * Token guessing on one match, slowed without locking out the right token. Within a window of
 * TOKEN_FAILURE_LIMIT, from one client address on one match:
 * - a token refused `limit.max` times (a stale device re-sending its old token) gets 429 for
 *   that token only: the match's own device, with the right token, writes on;
 * - once `limit.max` different tokens were refused, every write to the match from that address
 *   gets 429 until the window ends. A guesser so tries at most `limit.max` tokens a window per
 *   address and match (docs/limits.md); an address sharing the guesser's NAT waits with it.
 */
export function createTokenFailureThrottle(limit: RateLimit, now: () => number = Date.now) {
  const windows = createLru<FailureWindow>(TRACKED);
  const key = (address: string, matchId: string) => `${address}\0${matchId}`;
  const current = (address: string, matchId: string) => {
    const window = windows.get(key(address, matchId));
    return window !== undefined && window.endsAt > now() ? window : undefined;
  };
  return {
    /** Seconds to wait when this token (or, after many different tokens, the address) is throttled on this match, else null. */
    retryAfter(address: string, matchId: string, token: string | null): number | null {
      const window = current(address, matchId);
      if (window === undefined) return null;
      const throttled = window.tokens.size >= limit.max || (window.tokens.get(tokenKey(token)) ?? 0) >= limit.max;
      return throttled ? Math.ceil((window.endsAt - now()) / 1000) : null;
    },
    recordFailure(address: string, matchId: string, token: string | null) {
      let window = current(address, matchId);
      if (window === undefined) {
        window = { endsAt: now() + limit.windowMs, tokens: new Map() };
        windows.set(key(address, matchId), window);
      }
      const k = tokenKey(token);
      const failures = window.tokens.get(k);
      if (failures !== undefined) window.tokens.set(k, failures + 1);
      else if (window.tokens.size < limit.max) window.tokens.set(k, 1);
    },
  };
}

export type TokenFailureThrottle = ReturnType<typeof createTokenFailureThrottle>;

/**
 * A token check (an upload or an erasure of a protected match) under the throttle: answered 429
 * before the token is compared while the address is throttled on the match, and a refused token
 * (403) counted. Every method that compares a token goes through here, so each shares one budget.
 */
export async function throttledTokenCheck<T>(
  throttle: TokenFailureThrottle | null,
  { address, matchId, token }: { address: string; matchId: string; token: string | null },
  check: () => Promise<T>,
): Promise<T> {
  const wait = throttle?.retryAfter(address, matchId, token) ?? null;
  if (wait !== null) {
    throw tooManyRequests(`too many wrong X-Write-Tokens for this match from your address (TOKEN_FAILURE_LIMIT); retry in ${wait} s`, wait);
  }
  try {
    return await check();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'forbidden') throttle?.recordFailure(address, matchId, token);
    throw error;
  }
}
