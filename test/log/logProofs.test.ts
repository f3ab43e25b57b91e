import t, { type Test } from 'tap';
import { appendLeaf, frontierRoot, leafHash, verifyConsistency, verifyInclusion } from '../../src/domain/merkleTree.js';
import { createLogProofs, readTreeHead } from '../../src/history/logProofs.js';
import type { DocumentChange, ReadModelReader } from '../../src/readmodel/readModel.js';
import { reportingCommits } from '../../src/readmodel/reportedCommits.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { LOG_HEAD, LOG_LEAVES, leafId } from '../../src/readmodel/transparencyLogDocs.js';

/** More leaves than a process keeps the hashes of (KEPT_LEAVES, 4096), so kept ones are let go while proofs are made. */
const SIZE = 5000;

/** A log of SIZE leaves in a real SQLite read model, as the projection writes them, and the root of each tree size. */
async function log(t: Test) {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const changes: DocumentChange[] = [];
  const roots: Buffer[] = [frontierRoot([])];
  let frontier: Buffer[] = [];
  for (let index = 0; index < SIZE; index += 1) {
    const entry = `{"leaf":${index}}`;
    const appended = appendLeaf(frontier, index, leafHash(entry));
    frontier = appended.frontier;
    roots.push(frontierRoot(frontier));
    const hashes = appended.completed.map((hash) => hash.toString('base64'));
    const doc = { id: leafId(index), index, streamId: `match-${index}`, revision: 0, position: index, version: true, entry, hashes };
    changes.push({ collection: LOG_LEAVES, id: leafId(index), doc, position: index });
  }
  await store.commit('transparencyLog', changes, SIZE - 1, null);
  return { store, roots };
}

/** The reader, counting the leaves it is asked for, and its searches. */
function counting(reader: ReadModelReader) {
  const counted = { leaves: 0, finds: 0, gets: 0 };
  const get: ReadModelReader['get'] = async (collection, id) => {
    counted.gets += 1;
    return reader.get(collection, id);
  };
  const getMany: ReadModelReader['getMany'] = async (collection, ids) => {
    counted.leaves += ids.length;
    return reader.getMany(collection, ids);
  };
  const find: ReadModelReader['find'] = async (collection, query) => {
    counted.finds += 1;
    return reader.find(collection, query);
  };
  return { reader: { get, getMany, find }, counted };
}

t.test('proofs from kept subtree hashes are the proofs read afresh, and they verify', async (t) => {
  const { store, roots } = await log(t);
  const shared = createLogProofs(store);
  let checked = 0;
  for (let size = 1; size <= SIZE; size += 97) {
    for (const index of [0, size >> 1, size - 1]) {
      const proof = await shared.inclusionProof(index, size);
      t.same(proof, await createLogProofs(store).inclusionProof(index, size), `inclusion ${index} in ${size}, as read afresh`);
      if (!verifyInclusion(leafHash(`{"leaf":${index}}`), index, size, proof, roots[size]!)) t.fail(`inclusion ${index} in ${size} does not verify`);
      const from = index + 1;
      const consistency = await shared.consistencyProof(from, size);
      if (!verifyConsistency(from, size, consistency, roots[from]!, roots[size]!)) t.fail(`consistency ${from} → ${size} does not verify`);
      checked += 1;
    }
  }
  t.pass(`${checked} inclusion and consistency proofs verified`);
});

t.test('proofs made at once while kept leaves are let go are all right', async (t) => {
  const { store, roots } = await log(t);
  const proofs = createLogProofs(store);
  // Every leaf of the tree at once: each read lets older kept leaves go while other proofs wait for theirs.
  const indexes = Array.from({ length: SIZE }, (_, i) => (i * 7919) % SIZE);
  const made = await Promise.all(indexes.map((index) => proofs.inclusionProof(index, SIZE)));
  const wrong = indexes.filter((index, i) => !verifyInclusion(leafHash(`{"leaf":${index}}`), index, SIZE, made[i]!, roots[SIZE]!));
  t.same(wrong, [], `${SIZE} proofs made concurrently verify`);
});

t.test('a receipt of a new leaf reads the newest leaves, not one per level of the tree', async (t) => {
  const { store } = await log(t);
  const { reader, counted } = counting(store);
  const proofs = createLogProofs(reader);
  await proofs.inclusionProof(SIZE - 2, SIZE - 1);
  const first = counted.leaves;
  counted.leaves = 0;
  await proofs.inclusionProof(SIZE - 1, SIZE);
  t.ok(first >= 4, `the first proof read ${first} leaves`);
  t.ok(counted.leaves <= 2, `the next leaf's proof read ${counted.leaves}`);
});

t.test('leaves this process commits are kept as committed: a receipt reads none back, and a reset lets them go', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const { store: reported, commits } = reportingCommits(store);
  const { reader, counted } = counting(store);
  const proofs = createLogProofs(reader, commits);
  const unseen = createLogProofs(store);
  let frontier: Buffer[] = [];
  for (let index = 0; index < 40; index += 1) {
    const entry = `{"leaf":${index}}`;
    const appended = appendLeaf(frontier, index, leafHash(entry));
    frontier = appended.frontier;
    const hashes = appended.completed.map((hash) => hash.toString('base64'));
    const doc = { id: leafId(index), index, streamId: `match-${index % 4}`, revision: Math.floor(index / 4), position: index, version: true, entry, hashes };
    const head = { id: 'head' as const, size: index + 1, position: index, rootHash: frontierRoot(frontier).toString('base64') };
    await reported.commit(
      'transparencyLog',
      [
        { collection: LOG_LEAVES, id: doc.id, doc, position: index },
        { collection: LOG_HEAD, id: head.id, doc: head, position: index },
      ],
      index,
      index === 0 ? null : index - 1,
    );
    t.same(await proofs.treeHeadWith(index), await readTreeHead(store), `the head with leaf ${index} is the stored one`);
    const leaf = await proofs.leafOf(doc.streamId, doc.revision);
    t.same(leaf, await unseen.leafOf(doc.streamId, doc.revision), `leaf ${index} is the stored one`);
    const proof = await proofs.inclusionProof(index, index + 1);
    t.same(proof, await unseen.inclusionProof(index, index + 1), `and its proof the one read afresh`);
    if (!verifyInclusion(leafHash(entry), index, index + 1, proof, frontierRoot(frontier))) t.fail(`inclusion ${index} does not verify`);
  }
  t.same(counted, { leaves: 0, finds: 0, gets: 0 }, 'nothing was read back');
  t.same(await proofs.treeHeadWith(40), await readTreeHead(store), 'a head without the leaf asked for is read from the store');
  t.equal(counted.gets, 1);
  t.equal(await proofs.leafOf('match-9', 0), null, 'an event without a leaf has none');
  await reported.reset('transparencyLog', [LOG_LEAVES]);
  t.equal(await proofs.leafOf('match-1', 0), null, 'after a reset the leaf is looked for in the store, which has none');
  t.ok(counted.finds >= 1);
  await proofs.treeHeadWith(0);
  t.equal(counted.gets, 2, 'and so is the head');
});
