import { logEntryOf, logEntryText } from '../src/domain/logEntry.js';
import { isMatchEventType } from '../src/domain/matchEvents.js';
import { appendLeaf, frontierRoot, leafHash } from '../src/domain/merkleTree.js';
import { LOG_HEAD, LOG_LEAVES, type LogHeadDoc, leafId } from '../src/readmodel/transparencyLogDocs.js';
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
const TRANSPARENCY_LOG = 'transparencyLog';

const HEAD_ID = 'head';

const EMPTY_HEAD: LogHeadDoc = { id: HEAD_ID, size: 0, position: -1, rootHash: frontierRoot([]).toString('base64'), frontier: [] };

/**
 * A head's root while its batch goes on: only the batch's last head is committed, so its root is
 * hashed once, when the batch ends (finishBatch), not once an event.
 */
const UNHASHED = '';

const fromBase64 = (hash: string) => Buffer.from(hash, 'base64');

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
    const { completed, frontier } = appendToFrontier(head, leafHash(text));
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
      rootHash: UNHASHED,
      frontier,
    });
  },
  async finishBatch(view) {
    const head = await view.get(LOG_HEAD, HEAD_ID);
    if (head?.rootHash === UNHASHED) view.put(LOG_HEAD, { ...head, rootHash: frontierRoot(head.frontier.map(fromBase64)).toString('base64') });
  },
};

/**
 * appendLeaf on the head's stored frontier: only the subtrees the new leaf completes, one per
 * trailing one bit of the size, are decoded; the larger ones stay as stored.
 */
function appendToFrontier(head: LogHeadDoc, leaf: Buffer): { completed: Buffer[]; frontier: string[] } {
  let merged = 0;
  for (let n = head.size; n % 2 === 1; n = Math.floor(n / 2)) merged += 1;
  const kept = head.frontier.length - merged;
  // The same tail as a tree of 2^merged - 1 leaves has: its frontier is those subtrees.
  const tail = appendLeaf(head.frontier.slice(kept).map(fromBase64), 2 ** merged - 1, leaf);
  return { completed: tail.completed, frontier: [...head.frontier.slice(0, kept), ...tail.frontier.map((hash) => hash.toString('base64'))] };
}
