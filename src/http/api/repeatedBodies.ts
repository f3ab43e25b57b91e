import { createLru } from '../../platform/lru.js';

export interface RepeatedBodiesLimits {
  /** How many digests of bodies seen once are remembered. */
  seenDigests: number;
  /** The most text, in characters, whose parsed values are kept. */
  keptChars: number;
}

/**
 * Parsed bodies kept by the digest of their text, for bodies that come again. A scoring app
 * sends its match again unchanged (a retry after a timeout, a sync with nothing new), and the
 * parse is most of what such a request costs. The first time a text comes, only its digest is
 * remembered: bodies that come once (every create) keep no parsed copy. When it comes again,
 * its parsed value is kept, and later copies are answered with it, least recently used let go
 * first. The same text parses to the same value and passes the same checks, so a value is kept
 * only after it passed them. Values are shared between requests: no one may alter them (no one
 * alters a request body here; validation neither coerces nor fills in).
 */
export function createRepeatedBodies({ seenDigests, keptChars }: RepeatedBodiesLimits) {
  const seen = createLru<true>(seenDigests);
  const kept = createLru<{ value: unknown; chars: number }>(keptChars, (entry) => entry.chars);
  return {
    /** The value a text with this digest parsed to, when it came often enough to be kept. */
    get: (digest: string): unknown => kept.get(digest)?.value,
    /** A text was parsed and passed the checks: kept when it came before. */
    parsed(digest: string, value: unknown, textChars: number) {
      if (seen.get(digest) === undefined) seen.set(digest, true);
      else kept.set(digest, { value, chars: textChars });
    },
  };
}
