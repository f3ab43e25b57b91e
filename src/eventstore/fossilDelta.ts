import { createDelta } from 'fossil-delta';

/**
 * Byte deltas in Fossil's format (https://fossil-scm.org/home/doc/trunk/www/delta_format.wiki):
 * `size\n`, then copies `count@offset,` from the base and inserts `count:bytes`, then
 * `checksum;` of the result. Made by the `fossil-delta` package; applied here with Buffer
 * copies, because the package's applier pushes byte by byte into an array (1.3 ms for a 58 KB
 * match, against some 20 µs here: test/bench/deltaCandidates.mjs). A version edited in a few
 * places is walked in step with its base (alignedDelta); otherwise the package's matcher is
 * given what lies between the common prefix and suffix, and the result is null when that is
 * more than `maxMatched` bytes.
 */
export function makeDelta(base: Buffer, target: Buffer, maxMatched = Number.POSITIVE_INFINITY): Buffer | null {
  const prefix = commonRun(base, 0, target, 0);
  const suffix = commonSuffix(base, target, prefix);
  const aligned = alignedDelta(base, target, prefix, suffix);
  if (aligned !== null) return aligned;
  // The matcher takes ~0.6 µs a byte: beyond the bound a keyframe is cheaper than the delta.
  if (target.length - prefix - suffix > maxMatched) return null;
  if (prefix + suffix < TRIM_WORTH) return fossil(base, target);
  // The package's matcher is given only what lies between, and its copies are moved to the whole base.
  const inner = fossil(base.subarray(prefix, base.length - suffix), target.subarray(prefix, target.length - suffix));
  const middle: Buffer[] = [];
  shiftCopies(inner, prefix, middle);
  return framed(base, target, prefix, suffix, middle);
}

/** A whole delta: the target's size, its common prefix and suffix copied around `middle`'s commands, and its checksum. */
function framed(base: Buffer, target: Buffer, prefix: number, suffix: number, middle: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`${digits(target.length)}\n`)];
  if (prefix > 0) parts.push(copy(prefix, 0));
  parts.push(...middle);
  if (suffix > 0) parts.push(copy(suffix, base.length - suffix));
  parts.push(Buffer.from(`${digits(checksum(target))};`));
  return Buffer.concat(parts);
}

const copy = (count: number, offset: number) => Buffer.from(`${digits(count)}@${digits(offset)},`);
const insert = (bytes: Buffer) => Buffer.concat([Buffer.from(`${digits(bytes.length)}:`), bytes]);

/** Bytes of the base looked for in the target to copy from there again. */
const PROBE = 12;
/** How far into the target, from where the walk stands, a probe is looked for: the most bytes inserted in one place. */
const REACH = 2048;
/** Base bytes skipped, at most, before the walk copies again: the most bytes removed or replaced in one place. */
const MAX_SKIP = 256;
/** Most bytes the walk inserts in all (a quarter of the target at most): a rally or a set, not a rewrite. */
const MAX_INSERT = 4096;
/** Bytes alike from a probe's place before the walk copies from there. */
const MIN_RUN = 64;
/** Inserted bytes worth matching against the base's bytes near them, and how many of those. */
const MATCH_WORTH = 64;
const NEAR = 4096;
/** Places the walk may find the texts differ (a re-upload after a rally changes a handful). */
const MAX_EDITS = 32;
/**
 * Probes the walk searches for in all, places of one probe it compares, and bytes it compares at
 * a place while choosing: its work is bounded whatever the texts (in a text of one repeated byte
 * a probe is found everywhere, and alike for megabytes). A live version takes 3–35 probes.
 */
const MAX_PROBES = 1024;
const MAX_PLACES = 16;
const COMPARED = 4096;

/**
 * A delta made by walking both texts in step, for a version edited in a few places apart (a
 * live match's next upload: a set's score near the start, a stat in the middle, a rally at the
 * end), where the common prefix and suffix leave nearly the whole text to Fossil's matcher
 * (~170 µs for 30 KB). Where the texts differ, copying resumes where realign finds the base's
 * next bytes again in the target; what the target has before that is inserted. Native
 * comparisons and searches: ~60 µs for a live match's 30 KB. Null when the texts differ in more
 * places than MAX_EDITS, by more inserted bytes than MAX_INSERT, or past MAX_PROBES: Fossil's
 * matcher is then used, over at most what its caller bounds.
 */
function alignedDelta(base: Buffer, target: Buffer, prefix: number, suffix: number): Buffer | null {
  const end = target.length - suffix;
  // Edits closer together than MIN_RUN are inserted whole with what lies between: past this, the matcher does better.
  const maxInserted = Math.min(MAX_INSERT, target.length >> 2);
  const parts: Buffer[] = [];
  let from = prefix;
  let at = prefix;
  let inserted = 0;
  const budget = { probes: MAX_PROBES };
  for (let edits = 1; at < end; edits += 1) {
    if (edits > MAX_EDITS) return null;
    // The base's part before the suffix all copied: the rest of the target is new (a rally appended).
    const resume = from < base.length - suffix ? realign(base, from, target, at, end, budget) : null;
    if (budget.probes < 0) return null;
    inserted += (resume?.target ?? end) - at;
    if (inserted > maxInserted) return null;
    if (resume === null) {
      insertNear(base, from, target.subarray(at, end), parts);
      break;
    }
    if (resume.target > at) insertNear(base, from, target.subarray(at, resume.target), parts);
    parts.push(copy(resume.run, resume.base));
    from = resume.base + resume.run;
    at = resume.target + resume.run;
  }
  return framed(base, target, prefix, suffix, parts);
}

/**
 * Commands that make `bytes`, inserted where the walk stands at `from` in the base: a long run
 * of new bytes is given to Fossil's matcher against the base's NEAR bytes before `from` (a new
 * rally repeats the keys and values of the rallies before it: ~40 % fewer bytes), a short one inserted.
 */
function insertNear(base: Buffer, from: number, bytes: Buffer, parts: Buffer[]) {
  if (bytes.length < MATCH_WORTH) parts.push(insert(bytes));
  else shiftCopies(fossil(base.subarray(Math.max(0, from - NEAR), from), bytes), Math.max(0, from - NEAR), parts);
}

/**
 * Where copying resumes: the first base position from `from` whose next PROBE bytes occur in the
 * target's next REACH from `at`, at a place both go on alike for MIN_RUN bytes at least (or to
 * the end); of its places, the longest alike. The base's bytes are looked for in the target, not
 * the other way: a re-upload mostly inserts (a set, a stat, a rally), and then the base's very
 * next bytes are found after what was inserted, in one search. JSON repeats itself (every
 * action's keys), so a probe alone finds places that are not the edit's end.
 */
function realign(
  base: Buffer,
  from: number,
  target: Buffer,
  at: number,
  end: number,
  budget: { probes: number },
): { base: number; target: number; run: number } | null {
  const window = target.subarray(at, Math.min(end, at + REACH));
  const last = Math.min(from + MAX_SKIP, base.length - PROBE);
  for (let position = from; position <= last; position += 1) {
    budget.probes -= 1;
    if (budget.probes < 0) return null;
    const probe = base.subarray(position, position + PROBE);
    let best: { base: number; target: number; run: number } | null = null;
    let places = 0;
    for (let found = window.indexOf(probe); found >= 0 && places < MAX_PLACES; found = window.indexOf(probe, found + 1), places += 1) {
      const run = Math.min(commonRun(base, position, target, at + found, COMPARED), end - at - found);
      if (best === null || run > best.run) best = { base: position, target: at + found, run };
    }
    if (best !== null && (best.run >= MIN_RUN || best.target + best.run === end)) {
      return { ...best, run: Math.min(commonRun(base, best.base, target, best.target), end - best.target) };
    }
  }
  return null;
}

/** Bytes the prefix and suffix must share before trimming them pays for itself. */
const TRIM_WORTH = 64;

function fossil(base: Uint8Array, target: Uint8Array): Buffer {
  const delta = createDelta(base, target);
  return Buffer.from(delta.buffer, delta.byteOffset, delta.byteLength);
}

/**
 * Bytes compared at a time natively (memcmp), large blocks then small ones, before the byte loop
 * finds where they differ: 87 KB alike in 3 µs, against 12.5 in 512-byte blocks (each compare's
 * own cost is most of it).
 */
const BLOCKS = [4096, 256];

/** Bytes a[ai…] and b[bi…] share from their start, up to `limit`. */
function commonRun(a: Buffer, ai: number, b: Buffer, bi: number, limit = Number.POSITIVE_INFINITY): number {
  const most = Math.min(a.length - ai, b.length - bi, limit);
  let n = 0;
  for (const block of BLOCKS) while (n + block <= most && a.compare(b, bi + n, bi + n + block, ai + n, ai + n + block) === 0) n += block;
  while (n < most && a[ai + n] === b[bi + n]) n += 1;
  return n;
}

/** Bytes both end with, not reaching back into the first `prefix` of either. */
function commonSuffix(a: Buffer, b: Buffer, prefix: number): number {
  const most = Math.min(a.length, b.length) - prefix;
  let n = 0;
  for (const block of BLOCKS) {
    while (n + block <= most && a.compare(b, b.length - n - block, b.length - n, a.length - n - block, a.length - n) === 0) n += block;
  }
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

/**
 * The target's bytes, checked against the delta's size and (unless `verify` is false) its
 * checksum; BadDeltaError otherwise. A chain of deltas checks only its last result's checksum
 * (./deltaChain.ts).
 */
export function applyDelta(base: Buffer, delta: Buffer, verify = true): Buffer {
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
      if (verify && count !== checksum(out)) throw new BadDeltaError('the result does not have its checksum');
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
