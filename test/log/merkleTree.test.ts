import { createHash } from 'node:crypto';
import t from 'tap';
import {
  appendLeaf,
  consistencyRanges,
  frontierRoot,
  inclusionRanges,
  leafHash,
  nodeHash,
  rangeHash,
  type SubtreeRef,
  verifyConsistency,
  verifyInclusion,
} from '../../src/domain/merkleTree.js';

/** RFC 6962's MTH, straight from its definition: the reference the stored tree is checked against. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leaves[0]!;
  const k = 2 ** Math.floor(Math.log2(leaves.length - 1));
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const N = 70;
const leaves = Array.from({ length: N }, (_, i) => leafHash(`{"n":${i}}`));
const stored = new Map<string, Buffer>();
let frontier: Buffer[] = [];
const roots: Buffer[] = [mth([])];
for (let i = 0; i < N; i += 1) {
  const appended = appendLeaf(frontier, i, leaves[i]!);
  for (const [level, hash] of appended.completed.entries()) stored.set(`${level}/${(i + 1) / 2 ** level - 1}`, hash);
  frontier = appended.frontier;
  roots.push(frontierRoot(frontier));
}
const hashes = ({ level, index }: SubtreeRef) => {
  const hash = stored.get(`${level}/${index}`);
  if (!hash) throw new Error(`no ${level}/${index}`);
  return hash;
};

t.test('the appended tree has the root RFC 6962 defines, at every size', async (t) => {
  for (let n = 0; n <= N; n += 1) {
    t.ok(roots[n]!.equals(mth(leaves.slice(0, n))), `size ${n}`);
    t.ok(rangeHash([0, n], hashes).equals(roots[n]!), `size ${n} from stored subtrees`);
  }
});

t.test('every inclusion proof verifies, and fails for another leaf or root', async (t) => {
  let checked = 0;
  for (let n = 1; n <= N; n += 1) {
    for (let m = 0; m < n; m += 1) {
      const proof = inclusionRanges(m, n).map((range) => rangeHash(range, hashes));
      if (!verifyInclusion(leaves[m]!, m, n, proof, roots[n]!)) t.fail(`leaf ${m} of ${n}`);
      if (n > 1 && verifyInclusion(leaves[(m + 1) % n]!, m, n, proof, roots[n]!)) t.fail(`another leaf passes as ${m} of ${n}`);
      checked += 1;
    }
  }
  t.equal(checked, (N * (N + 1)) / 2);
});

t.test('every consistency proof verifies, and fails for a forked tree', async (t) => {
  const forked = roots.map((root, n) => (n < 3 ? root : mth([...leaves.slice(0, 2), leafHash('forged'), ...leaves.slice(3, n)])));
  for (let n = 1; n <= N; n += 1) {
    for (let m = 1; m <= n; m += 1) {
      const proof = consistencyRanges(m, n).map((range) => rangeHash(range, hashes));
      if (!verifyConsistency(m, n, proof, roots[m]!, roots[n]!)) t.fail(`${m} → ${n}`);
      if (m >= 3 && m < n && verifyConsistency(m, n, proof, roots[m]!, forked[n]!)) t.fail(`fork passes ${m} → ${n}`);
    }
  }
  t.pass('checked');
});
