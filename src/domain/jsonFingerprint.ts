import { createHash, hash } from 'node:crypto';

/** Characters of a fingerprint: 48 bits of SHA-1, enough to tell two versions of one value apart. */
export const FINGERPRINT_CHARS = 8;

/** A short hash of a string (base64url, FINGERPRINT_CHARS long). */
export const shortHash = (text: string): string => hash('sha1', text, 'base64url').slice(0, FINGERPRINT_CHARS);

/**
 * A short hash of a JSON value's content: equal values give equal fingerprints, and object key
 * order counts, as in the text. Native JSON.stringify does the walk; a value nested too deep for
 * it (stored before MAX_JSON_DEPTH existed) is walked with an explicit stack instead.
 */
export function jsonFingerprint(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return deepFingerprint(value);
  }
  return shortHash(text ?? 'undefined');
}

/** The same content hash without recursion, so no depth can overflow the call stack. */
function deepFingerprint(value: unknown): string {
  const digest = createHash('sha1');
  const stack: { key: string | null; value: unknown }[] = [{ key: null, value }];
  while (stack.length > 0) {
    const { key, value: current } = stack.pop()!;
    if (key !== null) digest.update(`${JSON.stringify(key)}:`);
    if (Array.isArray(current)) {
      digest.update(`[${current.length};`);
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ key: null, value: current[i] });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      digest.update(`{${entries.length};`);
      for (let i = entries.length - 1; i >= 0; i -= 1) stack.push({ key: entries[i]![0], value: entries[i]![1] });
    } else {
      digest.update(`${JSON.stringify(current) ?? 'undefined'},`);
    }
  }
  return digest.digest('base64url').slice(0, FINGERPRINT_CHARS);
}
