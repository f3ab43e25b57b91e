import { logEntryOf, logEntryText } from '../domain/logEntry.js';
import type { EventStore, Revision } from '../eventstore/eventStore.js';
import type { LogLeafDoc } from '../readmodel/transparencyLogDocs.js';
import type { CheckpointSigner } from './checkpointSigner.js';
import type { CosignedCheckpoint } from './cosignedCheckpoints.js';
import type { LogProofs } from './logProofs.js';

/** What a write's answer carries to prove what the log accepted (docs/auditing.md: receipts). */
export interface Receipt {
  logIndex: number | null;
  entry: string;
  checkpoint: string | null;
  inclusionProof: string[] | null;
  /** Whether `checkpoint` carries the cosignatures of the witnesses' quorum (never, with no witnesses). */
  cosigned: boolean;
  /** Where the newest checkpoint (cosigned, with witnesses) and this entry's proof in it are: one GET; null until the leaf has an index. */
  proofUrl: string | null;
}

/** A cosigned checkpoint that includes a leaf, if one comes within the write's wait. */
export type CosignedWith = (index: number) => Promise<CosignedCheckpoint | null>;

const VERSION_TYPES = new Set(['MatchCreated', 'MatchReplaced']);
/** How far back from a stream's end its newest version is looked for: a version is followed by at most its club sync outcome. */
const VERSION_SEARCH = 8;

/**
 * Receipts of events: the leaf, a signed checkpoint of the tree head that includes it and the
 * leaf's proof in it. A leaf the tree has not taken in yet (its projection lags past the write's
 * wait) gets a receipt of its entry alone, made from the event; the rest is one GET away. With
 * witnesses, the checkpoint is the newest the quorum cosigned once it includes the leaf, when
 * that comes within the write's wait (`cosignedWith` decides how long), else the log's own.
 */
export function createReceipts(deps: {
  proofs: LogProofs;
  eventStore: Pick<EventStore, 'readStream'>;
  checkpoints: CheckpointSigner;
  /** The URL of an entry's newest proof (GET /api/log/entries/:index/proof). */
  proofUrl: (index: number) => string;
  /** With witnesses: the cosigned checkpoint a receipt carries when one includes the leaf in time. */
  cosignedWith?: CosignedWith;
}) {
  const { proofs, eventStore, checkpoints, proofUrl } = deps;
  const cosignedWith: CosignedWith = deps.cosignedWith ?? (() => Promise.resolve(null));
  const proofText = (proof: Buffer[]) => proof.map((hash) => hash.toString('base64'));

  /** The receipt of the event at `revision`, whose leaf (null: none yet) was looked up already. */
  async function receiptOfLeaf(leaf: LogLeafDoc | null, streamId: string, revision: Revision): Promise<Receipt> {
    if (leaf !== null) {
      const head = await proofs.treeHeadWith(leaf.index);
      if (leaf.index < head.size) {
        const witnessed = await cosignedWith(leaf.index);
        const { index, entry } = leaf;
        if (witnessed !== null)
          return {
            logIndex: index,
            entry,
            checkpoint: witnessed.note,
            inclusionProof: proofText(await proofs.inclusionProof(index, witnessed.size)),
            cosigned: true,
            proofUrl: proofUrl(index),
          };
        const proof = await proofs.inclusionProof(index, head.size);
        return { logIndex: index, entry, checkpoint: checkpoints.sign(head), inclusionProof: proofText(proof), cosigned: false, proofUrl: proofUrl(index) };
      }
    }
    const [event] = await eventStore.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    const entry = event?.revision === revision ? logEntryOf(event) : null;
    if (entry === null) throw new Error(`${streamId} has no event at revision ${revision} to give a receipt of`);
    const logIndex = leaf?.index ?? null;
    return {
      logIndex,
      entry: logEntryText(entry),
      checkpoint: null,
      inclusionProof: null,
      cosigned: false,
      proofUrl: logIndex === null ? null : proofUrl(logIndex),
    };
  }

  return {
    receiptOf: async (streamId: string, revision: Revision) => receiptOfLeaf(await proofs.leafOf(streamId, revision), streamId, revision),

    /**
     * The receipt of the stream's newest version at or before `revision` (an upload that repeated
     * it): found among the stream's last leaves, an indexed read each (a club sync outcome may
     * follow the version), else, while the tree has not taken them in, among its last events.
     */
    async receiptOfVersionAt(streamId: string, revision: Revision): Promise<Receipt> {
      for (let at = revision; at >= 0 && at > revision - VERSION_SEARCH; at -= 1) {
        const leaf = await proofs.leafOf(streamId, at);
        if (leaf === null) break;
        if (leaf.version) return receiptOfLeaf(leaf, streamId, at);
      }
      const recent = await eventStore.readStream(streamId, { fromRevision: revision, direction: 'backwards', maxCount: VERSION_SEARCH });
      const version = recent.find((event) => VERSION_TYPES.has(event.type));
      if (version === undefined) throw new Error(`${streamId} has no version shortly before revision ${revision}`);
      return receiptOfLeaf(await proofs.leafOf(streamId, version.revision), streamId, version.revision);
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
