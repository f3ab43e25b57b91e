import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DomainError } from '../../src/domain/errors.js';
import { appendLeaf, EMPTY_ROOT, frontierRoot, leafHash } from '../../src/domain/merkleTree.js';
import { noteSignerFromSeed } from '../../src/domain/signedNote.js';
import { createCheckpointSigner } from '../../src/history/checkpointSigner.js';
import type { TreeHead } from '../../src/history/logProofs.js';
import { largestSignedTree } from '../../src/runtime/largestSignedTree.js';

const signer = noteSignerFromSeed('league.example/log', Buffer.alloc(32, 7));

/** Heads of one tree of `count` leaves, by size. */
function heads(count: number, salt = ''): TreeHead[] {
  const all: TreeHead[] = [{ size: 0, rootHash: EMPTY_ROOT }];
  let frontier: Buffer[] = [];
  for (let size = 0; size < count; size += 1) {
    frontier = appendLeaf(frontier, size, leafHash(`leaf ${size}${salt}`)).frontier;
    all.push({ size: size + 1, rootHash: frontierRoot(frontier) });
  }
  return all;
}

function dataDir(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-signed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The error `sign` throws, or null. */
function thrown(sign: () => unknown): unknown {
  try {
    sign();
    return null;
  } catch (error) {
    return error;
  }
}

const refused = (t: { ok(value: boolean, message: string): void }, sign: () => unknown, pattern: RegExp, message: string) => {
  const error = thrown(sign);
  t.ok(error instanceof DomainError && error.code === 'unavailable' && pattern.test(error.message), message);
};

t.test('after a start-over the log answers the largest tree it signed, and signs no smaller one, across a restart', async (t) => {
  const dir = dataDir(t);
  const tree = heads(5);
  const before = createCheckpointSigner(signer, largestSignedTree(dir));
  const signed = before.latest(tree[5]!);
  t.same(readdirSync(dir), ['log-signed-tree.json'], 'kept beside the key, no temporary file left');

  // The tree was emptied (rebuild --start-over transparencyLog) and the server restarted.
  const after = createCheckpointSigner(signer, largestSignedTree(dir));
  t.equal(after.latest(tree[0]!), signed, 'the checkpoint answered is the one signed before, not size 0');
  t.match(after.behind(tree[2]!), /has 2 entries, fewer than the 5 its key signed/);
  refused(t, () => after.sign(tree[2]!), /fewer than the 5 its key signed/, 'no receipt or export signs a smaller tree meanwhile');

  // Caught up: the same tree again, and smaller heads of it (a receipt overtaken by another write) are signed.
  t.equal(after.latest(tree[5]!), signed);
  t.equal(after.behind(tree[5]!), null);
  t.doesNotThrow(() => after.sign(tree[3]!));
});

t.test('a tree of the size signed with another root (a fork) is never signed', async (t) => {
  const signerOf = createCheckpointSigner(signer, largestSignedTree(dataDir(t)));
  signerOf.latest(heads(4)[4]!);
  refused(t, () => signerOf.latest(heads(4, 'forged')[4]!), /another root than the one its key signed: refusing to sign a fork/, 'refused');
});

t.test('a tree replaced in this process must reach the largest signed again before smaller heads are signed', async (t) => {
  const tree = heads(6);
  const signerOf = createCheckpointSigner(signer, largestSignedTree(dataDir(t)));
  signerOf.sign(tree[6]!);
  signerOf.treeReplaced();
  refused(t, () => signerOf.sign(tree[1]!), /fewer than the 6/, 'refused while it regrows');
  signerOf.sign(tree[6]!);
  t.doesNotThrow(() => signerOf.sign(tree[1]!));
});

t.test('the largest signed tree is never replaced by a smaller one another process kept', async (t) => {
  const dir = dataDir(t);
  const tree = heads(3);
  const a = createCheckpointSigner(signer, largestSignedTree(dir));
  const b = createCheckpointSigner(signer, largestSignedTree(dir));
  b.sign(tree[3]!);
  a.sign(tree[2]!);
  t.equal(largestSignedTree(dir).read()?.size, 3);
});

t.test('a record line cut short by a crash is skipped, and a long record is compacted to one line', async (t) => {
  const dir = dataDir(t);
  const tree = heads(300);
  const signerOf = createCheckpointSigner(signer, largestSignedTree(dir));
  for (let size = 1; size <= 300; size += 1) signerOf.sign(tree[size]!);
  const file = join(dir, 'log-signed-tree.json');
  t.ok(readFileSync(file, 'utf8').length <= 16 * 1024 + 400, 'compacted');
  appendFileSync(file, '{"size":301,"rootHash":"cut sh');
  t.equal(largestSignedTree(dir).read()?.size, 300);
  t.same(readdirSync(dir), ['log-signed-tree.json'], 'no temporary file left');
});
