/** Characters of a fingerprint: 48 bits, enough to tell two versions of one value apart. */
export const FINGERPRINT_CHARS = 8;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const sextets = (lane: number) => BASE64URL[lane >>> 18]! + BASE64URL[(lane >>> 12) & 63]! + BASE64URL[(lane >>> 6) & 63]! + BASE64URL[lane & 63]!;

/**
 * A short hash of a string (FINGERPRINT_CHARS of base64url): two 32-bit multiplicative lanes
 * mixed as in cyrb53, 24 bits kept of each. Not cryptographic, and it need not be: 48 bits of
 * SHA-1 (used before, DIFF_BASIS_FORMAT 2) were no stronger against a writer who chooses both
 * versions, and two native calls per action were a fifth of a version's diff basis.
 */
export function shortHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return sextets(h1 >>> 8) + sextets(h2 >>> 8);
}

/**
 * A short hash of a JSON value's content: equal values give equal fingerprints, and object key
 * order counts, as in the text. Native JSON.stringify does the walk; a value nested too deep for
 * it (stored before MAX_JSON_DEPTH existed) is walked with an explicit stack instead.
 */
export function jsonFingerprint(value: unknown): string {
  let text: string | undefined;
  try {
    text = jsonText(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return shortHash(deepText(value));
  }
  return shortHash(text ?? 'undefined');
}

/**
 * JSON.stringify(value): for a finite number or a boolean its String(), the same text (JSON
 * writes a finite number as ToString does) at half the cost, which counts over a payload of
 * hundreds of thousands of fields.
 */
export function jsonText(value: unknown): string | undefined {
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A text of the value's content made without recursion, so no depth can overflow the call stack. */
function deepText(value: unknown): string {
  const parts: string[] = [];
  const stack: { key: string | null; value: unknown }[] = [{ key: null, value }];
  while (stack.length > 0) {
    const { key, value: current } = stack.pop()!;
    if (key !== null) parts.push(`${JSON.stringify(key)}:`);
    if (Array.isArray(current)) {
      parts.push(`[${current.length};`);
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ key: null, value: current[i] });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      parts.push(`{${entries.length};`);
      for (let i = entries.length - 1; i >= 0; i -= 1) stack.push({ key: entries[i]![0], value: entries[i]![1] });
    } else {
      parts.push(`${JSON.stringify(current) ?? 'undefined'},`);
    }
  }
  return parts.join('');
}
