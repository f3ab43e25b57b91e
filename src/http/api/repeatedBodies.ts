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
  const kept = new Map<string, { value: unknown; chars: number }>();
  let chars = 0;

  function forget(digest: string) {
    const entry = kept.get(digest);
    if (entry === undefined) return;
    kept.delete(digest);
    chars -= entry.chars;
  }

  return {
    /** The value a text with this digest parsed to, when it came often enough to be kept. */
    get(digest: string): unknown {
      const entry = kept.get(digest);
      if (entry === undefined) return undefined;
      kept.delete(digest);
      kept.set(digest, entry);
      return entry.value;
    },
    /** A text was parsed and passed the checks: kept when it came before. */
    parsed(digest: string, value: unknown, textChars: number) {
      if (seen.get(digest) === undefined) {
        seen.set(digest, true);
        return;
      }
      if (textChars > keptChars) return;
      forget(digest);
      kept.set(digest, { value, chars: textChars });
      chars += textChars;
      for (const oldest of kept.keys()) {
        if (chars <= keptChars) break;
        forget(oldest);
      }
    },
  };
}

export type RepeatedBodies = ReturnType<typeof createRepeatedBodies>;
