import { createDelta } from 'fossil-delta';

/**
 * Byte deltas in Fossil's format (https://fossil-scm.org/home/doc/trunk/www/delta_format.wiki):
 * `size\n`, then copies `count@offset,` from the base and inserts `count:bytes`, then
 * `checksum;` of the result. Made by the `fossil-delta` package; applied here with Buffer
 * copies, because the package's applier pushes byte by byte into an array (1.3 ms for a 58 KB
 * match, against some 20 µs here: test/bench/deltaCandidates.mjs). Null when more than
 * `maxMatched` bytes differ between the common prefix and suffix.
 */
export function makeDelta(base: Buffer, target: Buffer, maxMatched = Number.POSITIVE_INFINITY): Buffer | null {
  // A re-upload changes a few places in a long text: the package's matcher is given only what
  // lies between the common prefix and suffix, and its copies are moved to the whole base.
  const prefix = commonPrefix(base, target);
  const suffix = commonSuffix(base, target, prefix);
  // The matcher takes ~0.6 µs a byte: beyond the bound a keyframe is cheaper than the delta.
  if (target.length - prefix - suffix > maxMatched) return null;
  if (prefix + suffix < TRIM_WORTH) return fossil(base, target);
  const inner = fossil(base.subarray(prefix, base.length - suffix), target.subarray(prefix, target.length - suffix));
  const parts: Buffer[] = [Buffer.from(`${digits(target.length)}\n`)];
  if (prefix > 0) parts.push(Buffer.from(`${digits(prefix)}@0,`));
  shiftCopies(inner, prefix, parts);
  if (suffix > 0) parts.push(Buffer.from(`${digits(suffix)}@${digits(base.length - suffix)},`));
  parts.push(Buffer.from(`${digits(checksum(target))};`));
  return Buffer.concat(parts);
}

/** Bytes the prefix and suffix must share before trimming them pays for itself. */
const TRIM_WORTH = 64;

function fossil(base: Uint8Array, target: Uint8Array): Buffer {
  const delta = createDelta(base, target);
  return Buffer.from(delta.buffer, delta.byteOffset, delta.byteLength);
}

/** Bytes compared at a time natively (memcmp) before the byte loop finds where blocks differ. */
const BLOCK = 512;

function commonPrefix(a: Buffer, b: Buffer): number {
  const most = Math.min(a.length, b.length);
  let at = 0;
  while (at + BLOCK <= most && a.compare(b, at, at + BLOCK, at, at + BLOCK) === 0) at += BLOCK;
  while (at < most && a[at] === b[at]) at += 1;
  return at;
}

/** Bytes both end with, not reaching back into the first `prefix` of either. */
function commonSuffix(a: Buffer, b: Buffer, prefix: number): number {
  const most = Math.min(a.length, b.length) - prefix;
  let n = 0;
  while (n + BLOCK <= most && a.compare(b, b.length - n - BLOCK, b.length - n, a.length - n - BLOCK, a.length - n) === 0) n += BLOCK;
  while (n < most && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';

/** A number in Fossil's base 64. */
function digits(value: number): string {
  let text = '';
  do {
    text = DIGITS[value % 64] + text;
    value = Math.floor(value / 64);
  } while (value > 0);
  return text;
}

/** The commands of `delta` (its size line and checksum left out), each copy moved `by` bytes into the base. */
function shiftCopies(delta: Buffer, by: number, parts: Buffer[]) {
  let at = delta.indexOf(0x0a) + 1;
  const number = () => {
    let value = 0;
    for (let digit = DIGIT_VALUES[delta[at]!]!; digit >= 0; digit = DIGIT_VALUES[delta[at]!]!) {
      value = value * 64 + digit;
      at += 1;
    }
    return value;
  };
  while (at < delta.length) {
    const start = at;
    const count = number();
    const command = delta[at++];
    if (command === 0x40) {
      const offset = number();
      at += 1;
      parts.push(Buffer.from(`${digits(count)}@${digits(offset + by)},`));
    } else if (command === 0x3a) {
      parts.push(delta.subarray(start, at + count));
      at += count;
    } else {
      return; // the checksum: of the middle only, made again for the whole
    }
  }
}

export class BadDeltaError extends Error {
  constructor(problem: string) {
    super(`delta cannot be applied: ${problem}`);
    this.name = 'BadDeltaError';
  }
}

/** Fossil's base-64 digits: their values, -1 for a byte that is not one. */
const DIGIT_VALUES = (() => {
  const values = new Int8Array(256).fill(-1);
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';
  for (let i = 0; i < digits.length; i += 1) values[digits.charCodeAt(i)] = i;
  return values;
})();

/** The target's bytes, checked against the delta's size and checksum; BadDeltaError otherwise. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const number = () => {
    let value = 0;
    let digits = 0;
    for (; at < delta.length; at += 1) {
      const digit = DIGIT_VALUES[delta[at]!]!;
      if (digit < 0) break;
      value = value * 64 + digit;
      digits += 1;
    }
    if (digits === 0 || digits > 6) throw new BadDeltaError(`no number at byte ${at}`);
    return value;
  };
  const size = number();
  if (delta[at++] !== 0x0a) throw new BadDeltaError('size not ended by a newline');
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  while (at < delta.length) {
    const count = number();
    const command = delta[at++];
    if (command === 0x40) {
      // count@offset,
      const offset = number();
      if (delta[at++] !== 0x2c) throw new BadDeltaError('copy not ended by a comma');
      if (offset + count > base.length || written + count > size) throw new BadDeltaError('copy beyond the base or the target');
      written += base.copy(out, written, offset, offset + count);
    } else if (command === 0x3a) {
      // count:bytes
      if (at + count > delta.length || written + count > size) throw new BadDeltaError('insert beyond the delta or the target');
      written += delta.copy(out, written, at, at + count);
      at += count;
    } else if (command === 0x3b) {
      // checksum;
      if (written !== size) throw new BadDeltaError(`made ${written} bytes, not the ${size} it names`);
      if (count !== checksum(out)) throw new BadDeltaError('the result does not have its checksum');
      return out;
    } else {
      throw new BadDeltaError(`unknown command at byte ${at - 1}`);
    }
  }
  throw new BadDeltaError('no checksum at the end');
}

/**
 * Fossil's 32-bit checksum: the sum of the bytes read as big-endian 32-bit words (four
 * interleaved byte sums, combined), the last 1–3 bytes as a word's first ones. Every version
 * read or written goes through it: on whole words it sums two byte lanes per addition (see
 * laneSums), 12 µs for 58 KB against 29 byte by byte (test/eventstore/fossilDelta.test.ts checks
 * that both give the same sums).
 */
export function checksum(bytes: Uint8Array): number {
  const words = LITTLE_ENDIAN && bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2) : null;
  const sums = words === null ? byteSums(bytes, bytes.length & ~3) : laneSums(words);
  let sum3 = (((((sums[3] + (sums[2] << 8)) | 0) + (sums[1] << 16)) | 0) + (sums[0] << 24)) | 0;
  const at = bytes.length & ~3;
  const left = bytes.length - at;
  if (left === 3) sum3 = (sum3 + (bytes[at + 2]! << 8)) | 0;
  if (left >= 2) sum3 = (sum3 + (bytes[at + 1]! << 16)) | 0;
  if (left >= 1) sum3 = (sum3 + (bytes[at]! << 24)) | 0;
  return sum3 >>> 0;
}

/** Whether this machine's words hold their low byte first, as laneSums reads them (else bytes are summed one by one). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

type LaneSums = [number, number, number, number];

/** The sums of bytes 0, 1, 2 and 3 of each 4 in bytes[0, end), modulo 2^32. */
function byteSums(bytes: Uint8Array, end: number): LaneSums {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  for (let at = 0; at < end; at += 4) {
    sum0 = (sum0 + bytes[at]!) | 0;
    sum1 = (sum1 + bytes[at + 1]!) | 0;
    sum2 = (sum2 + bytes[at + 2]!) | 0;
    sum3 = (sum3 + bytes[at + 3]!) | 0;
  }
  return [sum0, sum1, sum2, sum3];
}

/** Words summed before their 16-bit lanes are emptied: 128 × 0x00ff00ff stays under 2^31 (a small integer to V8). */
const LANE_WORDS = 128;

/**
 * byteSums of the words' bytes (little-endian: byte 0 is a word's low byte): masked with
 * 0x00ff00ff a word holds bytes 0 and 2 in two 16-bit lanes, shifted right by 8 bytes 1 and 3,
 * so one addition sums two bytes; four words a turn, and every LANE_WORDS words the lanes are
 * added to the totals.
 */
function laneSums(words: Int32Array): LaneSums {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let i = 0;
  while (i < words.length) {
    const to = Math.min(i + LANE_WORDS, words.length);
    let even = 0;
    let odd = 0;
    for (; i + 3 < to; i += 4) {
      const a = words[i]!;
      const b = words[i + 1]!;
      const c = words[i + 2]!;
      const d = words[i + 3]!;
      even = (even + (a & 0x00ff00ff) + (b & 0x00ff00ff) + (c & 0x00ff00ff) + (d & 0x00ff00ff)) | 0;
      odd = (odd + ((a >> 8) & 0x00ff00ff) + ((b >> 8) & 0x00ff00ff) + ((c >> 8) & 0x00ff00ff) + ((d >> 8) & 0x00ff00ff)) | 0;
    }
    for (; i < to; i += 1) {
      even = (even + (words[i]! & 0x00ff00ff)) | 0;
      odd = (odd + ((words[i]! >> 8) & 0x00ff00ff)) | 0;
    }
    sum0 = (sum0 + (even & 0xffff)) | 0;
    sum2 = (sum2 + (even >>> 16)) | 0;
    sum1 = (sum1 + (odd & 0xffff)) | 0;
    sum3 = (sum3 + (odd >>> 16)) | 0;
  }
  return [sum0, sum1, sum2, sum3];
}
