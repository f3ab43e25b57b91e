/** A limit of so many requests per window (WRITE_RATE_LIMIT, TOKEN_FAILURE_LIMIT). */
export interface RateLimit {
  max: number;
  windowMs: number;
  /** As configured, for messages: "300/minute". */
  text: string;
}
import { createLru } from '../../platform/lru.js';

/** Matches x addresses remembered at once; the oldest are forgotten first. */
const TRACKED = 100_000;

/**
 * Repeated 403s on one match from one client address look like token guessing: after
 * `limit.max` of them within the window, writes to that match from that address get 429 until
 * the window ends.
 */
export function createTokenFailureThrottle(limit: RateLimit, now: () => number = Date.now) {
  const windows = createLru<{ failures: number; endsAt: number }>(TRACKED);
  const key = (address: string, matchId: string) => `${address}\0${matchId}`;
  return {
    /** Seconds to wait when the address is throttled on this match, else null. */
    retryAfter(address: string, matchId: string): number | null {
      const window = windows.get(key(address, matchId));
      if (window === undefined || window.failures < limit.max) return null;
      const left = window.endsAt - now();
      return left > 0 ? Math.ceil(left / 1000) : null;
    },
    recordFailure(address: string, matchId: string) {
      const k = key(address, matchId);
      const window = windows.get(k);
      if (window === undefined || window.endsAt <= now()) windows.set(k, { failures: 1, endsAt: now() + limit.windowMs });
      else window.failures += 1;
    },
  };
}

export type TokenFailureThrottle = ReturnType<typeof createTokenFailureThrottle>;
