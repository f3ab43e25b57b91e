import { createHash } from 'node:crypto';

/**
 * A hash of a JSON value's content, walked with an explicit stack (no recursion, so no depth
 * can overflow it). Equal values give equal fingerprints; object key order counts, as in the text.
 */
export function jsonFingerprint(value: unknown): string {
  const hash = createHash('sha1');
  const stack: { key: string | null; value: unknown }[] = [{ key: null, value }];
  while (stack.length > 0) {
    const { key, value: current } = stack.pop()!;
    if (key !== null) hash.update(`${JSON.stringify(key)}:`);
    if (Array.isArray(current)) {
      hash.update(`[${current.length};`);
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ key: null, value: current[i] });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      hash.update(`{${entries.length};`);
      for (let i = entries.length - 1; i >= 0; i -= 1) stack.push({ key: entries[i]![0], value: entries[i]![1] });
    } else {
      hash.update(`${JSON.stringify(current) ?? 'undefined'},`);
    }
  }
  return hash.digest('base64url');
}
