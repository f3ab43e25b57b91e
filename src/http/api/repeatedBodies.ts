import { createLru } from '../../platform/lru.js';

export interface RepeatedBodiesLimits {
  /** How many fingerprints of bodies seen once are remembered. */
  seenTexts: number;
  /** The most text, in characters, kept with its parsed value. */
  keptChars: number;
}

/** Characters taken from each end of a text, and from evenly spread places inside it, for its fingerprint. */
const END_CHARS = 48;
const SAMPLES = 32;

/**
 * A few microseconds' worth of a text, whatever its size: its length, both ends and characters
 * from evenly spread places. Two texts may share one; a kept text is then told apart by equality.
 */
function fingerprint(text: string): string {
  const step = Math.max(1, Math.floor(text.length / SAMPLES));
  let sampled = '';
  for (let at = step; at < text.length; at += step) sampled += text[at];
  return `${text.length}\0${text.slice(0, END_CHARS)}\0${text.slice(-END_CHARS)}\0${sampled}`;
}

/**
 * Parsed bodies kept with their text, for bodies that come again. A scoring app sends its match
 * again unchanged (a retry after a timeout, a sync with nothing new), and the parse is most of
 * what such a request costs. The first time a text comes, only its fingerprint is remembered:
 * bodies that come once (every create) keep nothing. When it comes again, its text and parsed
 * value are kept, and later copies, equal to the kept text character for character, are
 * answered with the value, least recently used let go first. No digest is made: the equality
 * is the proof, and a native comparison of equal texts costs a few microseconds where a
 * SHA-256 of 85 KB costs ~60. The same text parses to the same value and passes the same
 * checks, so a value is kept only after it passed them. Values are shared between requests: no
 * one may alter them (no one alters a request body here; validation neither coerces nor fills in).
 */
export function createRepeatedBodies({ seenTexts, keptChars }: RepeatedBodiesLimits) {
  const seen = createLru<true>(seenTexts);
  const kept = createLru<{ text: string; value: unknown }>(keptChars, (entry) => entry.text.length);
  return {
    /** The value this text parsed to, when it came often enough to be kept. */
    get(text: string): unknown {
      const entry = kept.get(fingerprint(text));
      return entry?.text === text ? entry.value : undefined;
    },
    /** A text was parsed and passed the checks: kept when it came before. */
    parsed(text: string, value: unknown) {
      const key = fingerprint(text);
      if (seen.get(key) === undefined) seen.set(key, true);
      else kept.set(key, { text, value });
    },
  };
}
