import { consistencyRanges, EMPTY_ROOT, inclusionRanges, rangeHash, type SubtreeRef, subtreesOfRanges } from '../domain/merkleTree.js';
import { documentOf, type ReadModelReader } from '../readmodel/readModel.js';
import type { ReportedCommits } from '../readmodel/reportedCommits.js';
import { LOG_HEAD, LOG_LEAVES, type LogHeadDoc, type LogLeafDoc, leafId } from '../readmodel/transparencyLogDocs.js';

/** What the transparency log's readers are told: its size and root as the projection last committed them. */
export interface TreeHead {
  size: number;
  rootHash: Buffer;
}

/** The tree head a stored head document says (none: the empty tree). */
const treeHeadOf = (head: LogHeadDoc | null): TreeHead =>
  head === null ? { size: 0, rootHash: EMPTY_ROOT } : { size: head.size, rootHash: Buffer.from(head.rootHash, 'base64') };

export async function readTreeHead(reader: Pick<ReadModelReader, 'get'>): Promise<TreeHead> {
  return treeHeadOf(await reader.get(LOG_HEAD, 'head'));
}

export const readLeaf = (reader: Pick<ReadModelReader, 'get'>, index: number) => reader.get(LOG_LEAVES, leafId(index));

/** The leaf of a stream's event at `revision`, or null when the log has none (yet). */
export async function leafOfEvent(reader: Pick<ReadModelReader, 'find'>, streamId: string, revision: number): Promise<LogLeafDoc | null> {
  const [leaf] = await reader.find(LOG_LEAVES, { where: { streamId, revision }, limit: 1 });
  return leaf ?? null;
}

/** The leaves of a stream's events at `revisions`, by revision (the history names each version's log index). */
export async function leavesOfStream(
  reader: Pick<ReadModelReader, 'find'>,
  streamId: string,
  fromRevision: number,
  toRevision: number,
): Promise<Map<number, number>> {
  const leaves = await reader.find(LOG_LEAVES, {
    where: { streamId },
    orderBy: [{ field: 'revision', direction: 'asc' }],
    offset: fromRevision,
    limit: toRevision - fromRevision + 1,
  });
  return new Map(leaves.map((leaf) => [leaf.revision, leaf.index]));
}

/** Leaves whose subtree hashes a process keeps: ~1 MB at most, and every level of a tree of millions is a handful of them. */
const KEPT_LEAVES = 4096;

/** Leaves this process committed last that are kept whole, by event: a write's receipt finds its own here. */
const RECENT_LEAVES = 1024;

const eventKey = (streamId: string, revision: number) => `${revision}\u0000${streamId}`;

/**
 * Sets `key` in `map`, letting the first kept go past `max`: a lookup does not reorder (an LRU's
 * reordering of thousands of keys cost more than it saved).
 */
function keepNewest<V>(map: Map<string, V>, key: string, value: V, max: number) {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/**
 * RFC 6962 proofs from the transparency log's read model. The hashes of the complete subtrees
 * ending at a leaf never change once the tree has it (leaves are appended, never rewritten; a
 * rebuild makes the same ones; a restore is made into an empty data folder, before a process
 * starts: docs/operations.md), so the last KEPT_LEAVES leaves' hashes read are kept: a write's
 * receipt reads its batch's newest leaves, not a leaf per level of the tree. Where the
 * projection runs in this process (`commits`), the leaves it commits are kept as committed,
 * and a write's receipt reads none of them back (its leaf and hashes were ~70 µs of a live
 * upload's ~1.4 ms), nor the tree head it committed with them; any promote or reset lets the
 * recent ones and the head go.
 */
export function createLogProofs(reader: Pick<ReadModelReader, 'get' | 'getMany' | 'find'>, commits: ReportedCommits | null = null) {
  const kept = new Map<string, string[]>();
  const keep = (id: string, hashes: string[]) => keepNewest(kept, id, hashes, KEPT_LEAVES);
  const recent = new Map<string, LogLeafDoc>();
  /** The tree head this process committed last (null: none, or let go). */
  let committedHead: TreeHead | null = null;
  commits?.(({ changes }) => {
    if (changes === null) {
      recent.clear();
      committedHead = null;
    } else
      for (const { collection, doc } of changes) {
        const head = collection === LOG_HEAD ? documentOf(LOG_HEAD, doc) : null;
        if (head !== null) committedHead = treeHeadOf(head);
        const leaf = collection === LOG_LEAVES ? documentOf(LOG_LEAVES, doc) : null;
        if (leaf === null) continue;
        keep(leaf.id, leaf.hashes);
        keepNewest(recent, eventKey(leaf.streamId, leaf.revision), leaf, RECENT_LEAVES);
      }
  });

  /** Hashes of complete subtrees, from the leaves they end at. */
  async function subtreeHashes(refs: SubtreeRef[]) {
    const endOf = ({ level, index }: SubtreeRef) => (index + 1) * 2 ** level - 1;
    // Looked up here, once: another receipt may let a kept leaf go while this one reads.
    const found = new Map<string, string[]>();
    const missing: string[] = [];
    for (const id of new Set(refs.map((ref) => leafId(endOf(ref))))) {
      const hashes = kept.get(id);
      if (hashes === undefined) missing.push(id);
      else found.set(id, hashes);
    }
    if (missing.length > 0) {
      for (const [id, leaf] of await reader.getMany(LOG_LEAVES, missing)) {
        found.set(id, leaf.hashes);
        keep(id, leaf.hashes);
      }
    }
    return (ref: SubtreeRef): Buffer => {
      const hash = found.get(leafId(endOf(ref)))?.[ref.level];
      if (hash === undefined) throw new Error(`the transparency log has no hash for ${2 ** ref.level} leaves from ${ref.index * 2 ** ref.level}`);
      return Buffer.from(hash, 'base64');
    };
  }

  return {
    /** The leaf of a stream's event at `revision`, or null when the log has none (yet). */
    leafOf: async (streamId: string, revision: number): Promise<LogLeafDoc | null> =>
      recent.get(eventKey(streamId, revision)) ?? leafOfEvent(reader, streamId, revision),

    /**
     * A tree head that has the leaf at `index`, if the log's has it: the one this process
     * committed last when it does (a head of the same append-only tree, as signed as any), else
     * the stored one (another process may have committed the leaf).
     */
    treeHeadWith: async (index: number): Promise<TreeHead> => (committedHead !== null && committedHead.size > index ? committedHead : readTreeHead(reader)),

    /** RFC 6962 PATH(index, D[0:size]), deepest first. */
    async inclusionProof(index: number, size: number): Promise<Buffer[]> {
      const ranges = inclusionRanges(index, size);
      const hashes = await subtreeHashes(subtreesOfRanges(ranges));
      return ranges.map((range) => rangeHash(range, hashes));
    },

    /** RFC 6962 PROOF(from, D[0:to]). */
    async consistencyProof(from: number, to: number): Promise<Buffer[]> {
      const ranges = consistencyRanges(from, to);
      const hashes = await subtreeHashes(subtreesOfRanges(ranges));
      return ranges.map((range) => rangeHash(range, hashes));
    },
  };
}

export type LogProofs = ReturnType<typeof createLogProofs>;
