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
 * A few microseconds' worth of a text, whatever its size: its length and an FNV-1a hash of both
 * ends and of characters from evenly spread places. Two texts may share one; a kept text is then
 * told apart by equality. A number, not a slice of the text: a slice would keep the whole body
 * alive for as long as its fingerprint is remembered.
 */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  const mix = (at: number) => {
    hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  };
  const ends = Math.min(END_CHARS, text.length);
  for (let at = 0; at < ends; at += 1) mix(at);
  for (let at = Math.max(ends, text.length - END_CHARS); at < text.length; at += 1) mix(at);
  const step = Math.max(1, Math.floor(text.length / SAMPLES));
  for (let at = step; at < text.length; at += step) mix(at);
  return `${text.length}:${hash >>> 0}`;
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
    /** Lets go of every text and value: a match was erased, and its texts may be among them (they are not kept by match). */
    clear() {
      seen.deleteWhere(() => true);
      kept.deleteWhere(() => true);
    },
    /** A text was parsed and passed the checks: kept when it came before. */
    parsed(text: string, value: unknown) {
      const key = fingerprint(text);
      if (seen.get(key) === undefined) seen.set(key, true);
      else kept.set(key, { text, value });
    },
  };
}
