import { createHash } from 'node:crypto';
import { clubIdOfStream } from '../src/domain/clubIds.js';
import { type LogEntry, logEntryText } from '../src/domain/logEntry.js';
import { decodeMatchEvent, isMatchEventType } from '../src/domain/matchEvents.js';
import { matchIdOfStream } from '../src/domain/matchId.js';
import { appendLeaf, frontierRoot, leafHash } from '../src/domain/merkleTree.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import { collectionOf } from '../src/readmodel/readModel.js';
import type { Projection } from './projection.js';

/**
 * The transparency log (docs/auditing.md): an RFC 6962 Merkle tree with one leaf per match and
 * club event, in log order. Its only writer is this projection, run by the projection runner:
 * on SQLite a batch's leaves and the head move with its checkpoint in one transaction, so each
 * event becomes exactly one leaf whatever the crash; on MongoDB a leaf is a pure function of the
 * log and the head before it, so a redelivered event writes the same documents again.
 *
 * Storage: a document per leaf (its entry, and the hashes of the complete subtrees that end at
 * it: about two hashes a leaf), and one head (size, root and frontier). Nothing is rewritten.
 */
export const LOG_LEAVES = collectionOf<LogLeafDoc>('logLeaves');
export const LOG_HEAD = collectionOf<LogHeadDoc>('logHead');
export const TRANSPARENCY_LOG = 'transparencyLog';

export interface LogLeafDoc {
  [field: string]: unknown;
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
  [field: string]: unknown;
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
const HEAD_ID = 'head';
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The entry of an event, or null for events of other streams (an admin email's claim): the
 * salted digest of a version (from its metadata; an unsalted SHA-256 of the payload for
 * versions stored before salts), the SHA-256 of the data of any other event.
 */
export function logEntryOf(recorded: RecordedEvent): LogEntry | null {
  const matchId = matchIdOfStream(recorded.streamId);
  const clubId = matchId === null ? clubIdOfStream(recorded.streamId) : null;
  if (matchId === null && clubId === null) return null;
  const where = matchId !== null ? { matchId } : { clubId: clubId! };
  const base = { ...where, revision: recorded.revision, type: recorded.type, recordedAt: recorded.recordedAt };
  if (isMatchEventType(recorded.type)) {
    const salted = recorded.metadata.payloadSha256;
    if (salted !== undefined) return { ...base, payloadSha256: salted };
    if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} was erased without its payload digest`);
    const version = decodeMatchEvent(recorded.type, recorded.data);
    return { ...base, payloadSha256: sha256Hex(version!.data.payload) };
  }
  if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} is erased, but only versions may be`);
  return { ...base, dataSha256: sha256Hex(recorded.data) };
}

const EMPTY_HEAD: LogHeadDoc = { id: HEAD_ID, size: 0, position: -1, rootHash: frontierRoot([]).toString('base64'), frontier: [] };

export const transparencyLogProjection: Projection = {
  name: TRANSPARENCY_LOG,
  collections: [LOG_LEAVES, LOG_HEAD],
  indexes: [{ collection: LOG_LEAVES, fields: ['streamId', 'revision'] }],
  // Every write waits for its leaf: its receipt carries the leaf's inclusion proof.
  reads: () => [{ collection: LOG_HEAD, id: HEAD_ID }],
  async apply(recorded, view) {
    const entry = logEntryOf(recorded);
    if (entry === null) return;
    const head = (await view.get(LOG_HEAD, HEAD_ID)) ?? EMPTY_HEAD;
    if (recorded.position <= head.position) return;
    const text = logEntryText(entry);
    const { completed, frontier } = appendLeaf(
      head.frontier.map((hash) => Buffer.from(hash, 'base64')),
      head.size,
      leafHash(text),
    );
    view.put(LOG_LEAVES, {
      id: leafId(head.size),
      index: head.size,
      streamId: recorded.streamId,
      revision: recorded.revision,
      position: recorded.position,
      version: isMatchEventType(recorded.type),
      entry: text,
      hashes: completed.map((hash) => hash.toString('base64')),
    });
    view.put(LOG_HEAD, {
      id: HEAD_ID,
      size: head.size + 1,
      position: recorded.position,
      rootHash: frontierRoot(frontier).toString('base64'),
      frontier: frontier.map((hash) => hash.toString('base64')),
    });
  },
};
