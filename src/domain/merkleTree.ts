import { createHash } from 'node:crypto';

/**
 * RFC 6962 / RFC 9162 Merkle tree hashing and proofs, pure. Leaves are `SHA-256(0x00 ‖ entry)`,
 * interior nodes `SHA-256(0x01 ‖ left ‖ right)`; the tree of n leaves splits at the largest
 * power of two below n. Stored trees keep only complete subtrees (aligned, a power of two
 * wide); every other hash a proof needs is made from them here.
 */

export const leafHash = (entry: Buffer | string) =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(entry)
    .digest();
export const nodeHash = (left: Buffer, right: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** A complete subtree: leaves [index·2^level, (index+1)·2^level). */
export interface SubtreeRef {
  level: number;
  index: number;
}

/** Hashes of complete subtrees, by level and index; throws for one it does not hold. */
export type SubtreeHashes = (ref: SubtreeRef) => Buffer;

/** A range of leaves [start, end) whose Merkle hash a proof holds. */
type Range = [start: number, end: number];

const largestPowerOfTwoBelow = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

/** The complete subtrees whose hashes make the hash of [start, end) (a range RFC 6962's recursion reaches). */
function subtreesOf([start, end]: Range): SubtreeRef[] {
  const width = end - start;
  const level = Math.log2(width);
  if (Number.isInteger(level) && start % width === 0) return [{ level, index: start / width }];
  const k = largestPowerOfTwoBelow(width);
  return [...subtreesOf([start, start + k]), ...subtreesOf([start + k, end])];
}

/** MTH(D[start:end]) from the stored complete subtrees. */
export function rangeHash([start, end]: Range, hashes: SubtreeHashes): Buffer {
  if (end === start) return EMPTY_ROOT;
  const width = end - start;
  const level = Math.log2(width);
  if (Number.isInteger(level) && start % width === 0) return hashes({ level, index: start / width });
  const k = largestPowerOfTwoBelow(width);
  return nodeHash(rangeHash([start, start + k], hashes), rangeHash([start + k, end], hashes));
}

/** The ranges of PATH(m, D[0:n]) (RFC 6962 2.1.1), deepest first. */
export function inclusionRanges(index: number, size: number): Range[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const path = (m: number, start: number, end: number): Range[] => {
    if (end - start === 1) return [];
    const k = largestPowerOfTwoBelow(end - start);
    return m < k ? [...path(m, start, start + k), [start + k, end]] : [...path(m - k, start + k, end), [start, start + k]];
  };
  return path(index, 0, size);
}

/** The ranges of PROOF(m, D[0:n]) (RFC 6962 2.1.2); none when m is 0 or n. */
export function consistencyRanges(from: number, to: number): Range[] {
  if (!(from >= 0 && from <= to)) throw new RangeError(`no consistency proof from ${from} to ${to}`);
  if (from === 0 || from === to) return [];
  const subproof = (m: number, start: number, end: number, whole: boolean): Range[] => {
    if (m === end - start) return whole ? [] : [[start, end]];
    const k = largestPowerOfTwoBelow(end - start);
    return m <= k ? [...subproof(m, start, start + k, whole), [start + k, end]] : [...subproof(m - k, start + k, end, false), [start, start + k]];
  };
  return subproof(from, 0, to, true);
}

/** Every complete subtree a set of ranges needs: fetch these, then hash with `rangeHash`. */
export const subtreesOfRanges = (ranges: Range[]) => ranges.flatMap(subtreesOf);

/**
 * Appends leaf `size` (0-based) to a tree of `size` leaves given by its frontier: the roots of
 * its complete subtrees, largest first, one per one bit of `size` (a "compact range"). Gives
 * the complete subtrees that end at the new leaf (its own hash first, then one per level it
 * completes) and the frontier after it.
 */
export function appendLeaf(frontier: readonly Buffer[], size: number, leaf: Buffer): { completed: Buffer[]; frontier: Buffer[] } {
  const next = [...frontier];
  const completed = [leaf];
  let hash = leaf;
  for (let n = size; n % 2 === 1; n = Math.floor(n / 2)) {
    const left = next.pop();
    if (left === undefined) throw new Error(`the frontier does not fit a tree of ${size} leaves`);
    hash = nodeHash(left, hash);
    completed.push(hash);
  }
  next.push(hash);
  return { completed, frontier: next };
}

/** The root of a tree from its frontier: its subtrees hashed together from the smallest (rightmost). */
export function frontierRoot(frontier: readonly Buffer[]): Buffer {
  if (frontier.length === 0) return EMPTY_ROOT;
  let root = frontier.at(-1)!;
  for (let i = frontier.length - 2; i >= 0; i -= 1) root = nodeHash(frontier[i]!, root);
  return root;
}

/** Checks an inclusion proof (RFC 9162 2.1.3.2): whether `leaf` at `index` is in the tree of `size` with `root`. */
export function verifyInclusion(leaf: Buffer, index: number, size: number, proof: readonly Buffer[], root: Buffer): boolean {
  if (!(index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** Checks a consistency proof (RFC 9162 2.1.4.2) between the trees of `from` and `to` leaves. */
export function verifyConsistency(from: number, to: number, proof: readonly Buffer[], fromRoot: Buffer, toRoot: Buffer): boolean {
  if (from > to) return false;
  if (from === to) return proof.length === 0 && fromRoot.equals(toRoot);
  if (from === 0) return proof.length === 0;
  const path = [...proof];
  if (Number.isInteger(Math.log2(from))) path.unshift(fromRoot);
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  const first = path.shift();
  if (first === undefined) return false;
  let fr = first;
  let sr = first;
  for (const c of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(fromRoot) && sr.equals(toRoot);
}
