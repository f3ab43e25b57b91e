import { unavailable } from '../domain/errors.js';
import { checkpointText } from '../domain/logCheckpoint.js';
import { type NoteSigner, signNote } from '../domain/signedNote.js';
import type { TreeHead } from './logProofs.js';

/** The largest tree a log key signed: its size, base64 root and the note signed. */
export interface LargestSigned {
  size: number;
  rootHash: string;
  checkpoint: string;
}

/** Where the largest signed tree is kept across restarts (DATA_DIR/log-signed-tree.json: src/runtime/largestSignedTree.ts). */
export interface LargestSignedStore {
  read(): LargestSigned | null;
  /** Kept before the note leaves the process (across restarts; src/runtime/largestSignedTree.ts says how durably). */
  write(largest: LargestSigned): void;
}

const inMemory = (): LargestSignedStore => {
  let kept: LargestSigned | null = null;
  return { read: () => kept, write: (largest) => (kept = largest) };
};

/**
 * Signs checkpoints of the tree head: a C2SP signed note over a tlog-checkpoint body, under the
 * key's name as origin (the origin is fixed with the key). Ed25519 signatures are deterministic,
 * so one head always gives the same note; the last is kept.
 *
 * Never a smaller tree (issue 59 F5): the largest tree signed is kept (`store`). A head of that
 * size with another root is refused (a fork); while the tree is behind it (a start-over, a
 * restored read model, a lagging worker), no smaller head is signed and `latest` answers the
 * largest signed note instead. Once the tree has reached it again, smaller heads (a receipt
 * whose head an other write overtook) are prefixes of the same tree and are signed. It does not
 * prove that a tree grown past the largest extends it: auditors' consistency proofs do.
 */
export function createCheckpointSigner(signer: NoteSigner, store: LargestSignedStore = inMemory()) {
  const origin = signer.name;
  let last: { size: number; root: string; note: string } | null = null;
  let largest = store.read();
  /** Whether the tree was seen at or past the largest signed since it was last seen behind. */
  let reached = largest === null;

  /** Notes that `head` is the tree's current head: below the largest signed, the tree is behind. */
  function observe(head: TreeHead) {
    if (largest !== null && head.size < largest.size) reached = false;
  }

  function sign(head: TreeHead): string {
    const root = head.rootHash.toString('base64');
    if (last?.size === head.size && last.root === root) return last.note;
    if (largest !== null && head.size === largest.size && root !== largest.rootHash)
      throw unavailable(`the transparency log's tree of ${head.size} entries has another root than the one its key signed: refusing to sign a fork`);
    if (largest !== null && head.size < largest.size && !reached) throw unavailable(behindMessage(head.size, largest.size), 5);
    const note = signNote(checkpointText({ origin, size: head.size, rootHash: head.rootHash }), signer);
    if (largest === null || head.size > largest.size) {
      largest = { size: head.size, rootHash: root, checkpoint: note };
      store.write(largest);
    }
    if (head.size >= largest.size) reached = true;
    last = { size: head.size, root, note };
    return note;
  }

  return {
    origin,
    sign,
    /** The checkpoint to answer as the log's latest for the current `head`: its own, or while the tree is behind, the largest signed. */
    latest(head: TreeHead): string {
      observe(head);
      return largest !== null && head.size < largest.size ? largest.checkpoint : sign(head);
    },
    /** Why the current `head` is not ready to be signed (behind the largest signed), or null. */
    behind(head: TreeHead): string | null {
      observe(head);
      return largest !== null && head.size < largest.size ? behindMessage(head.size, largest.size) : null;
    },
    /** The tree's collections were replaced (a reset or promote in this process): it must reach the largest signed again. */
    treeReplaced() {
      reached = largest === null;
      last = null;
    },
  };
}

const behindMessage = (size: number, signed: number) =>
  `the transparency log's tree has ${size} entries, fewer than the ${signed} its key signed: it is catching up with the log`;

export type CheckpointSigner = ReturnType<typeof createCheckpointSigner>;
