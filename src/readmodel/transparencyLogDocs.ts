import { collectionOf } from './readModel.js';

/**
 * The transparency log's documents (docs/auditing.md), written by its projection
 * (projections/transparencyLog.ts) and read by the proofs (src/history/logProofs.ts): declared
 * here, below both.
 */
export const LOG_LEAVES = collectionOf<LogLeafDoc>('logLeaves');
export const LOG_HEAD = collectionOf<LogHeadDoc>('logHead');

export interface LogLeafDoc {
  /** The leaf index, zero-padded (ids sort as indexes). */
  id: string;
  index: number;
  streamId: string;
  revision: number;
  position: number;
  /** A match version (MatchCreated, MatchReplaced): its receipt and payload check name it. */
  version: boolean;
  /** The entry's canonical JSON, served byte for byte. */
  entry: string;
  /** Base64 hashes of the complete subtrees ending at this leaf: [0] the leaf's, [k] the 2^k leaves up to it. */
  hashes: string[];
}

export interface LogHeadDoc {
  id: 'head';
  size: number;
  /** Position of the last event with a leaf; -1 for none. */
  position: number;
  /** Base64 root hash of the tree of `size` leaves. */
  rootHash: string;
  /** Base64 roots of the tree's complete subtrees, largest first. */
  frontier: string[];
}

export const leafId = (index: number) => String(index).padStart(12, '0');
