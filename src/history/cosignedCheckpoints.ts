import type { TreeHead } from './logProofs.js';

/** A checkpoint the witnesses' quorum cosigned: the log's signed note with their cosignature lines after its signature. */
export interface CosignedCheckpoint {
  size: number;
  rootHash: Buffer;
  note: string;
}

/** Checkpoints kept while their cosignatures come in: a witness answers within a round, so a few suffice. */
const COLLECTING = 32;

interface Collecting {
  head: TreeHead;
  logNote: string;
  lines: Map<string, string>;
}

const bodyKey = (head: TreeHead) => `${head.size} ${head.rootHash.toString('base64')}`;

/**
 * The cosignatures the witnesses gave, by checkpoint, and the newest checkpoint the quorum
 * cosigned. It only moves forward (a larger tree); `onNewest` is told each time it does (the
 * store in DATA_DIR keeps it across restarts). Lines are kept in the witnesses' configured order.
 */
export function createCosignedCheckpoints(options: {
  quorum: number;
  witnessOrder: readonly string[];
  initial: CosignedCheckpoint | null;
  onNewest?: (checkpoint: CosignedCheckpoint) => void;
}) {
  const { quorum, witnessOrder, onNewest } = options;
  let newest = options.initial;
  const collecting = new Map<string, Collecting>();
  const waiters = new Set<{ index: number; resolve: (checkpoint: CosignedCheckpoint | null) => void }>();

  function promote(entry: Collecting) {
    const lines = witnessOrder.flatMap((name) => entry.lines.get(name) ?? []);
    newest = { size: entry.head.size, rootHash: entry.head.rootHash, note: `${entry.logNote}${lines.map((line) => `${line}\n`).join('')}` };
    for (const [key, other] of collecting) if (other.head.size <= entry.head.size) collecting.delete(key);
    onNewest?.(newest);
    for (const waiter of waiters)
      if (waiter.index < newest.size) {
        waiters.delete(waiter);
        waiter.resolve(newest);
      }
  }

  return {
    newest: () => newest,

    /** Keeps one witness's verified cosignature line of the log's signed checkpoint of `head`. */
    add(head: TreeHead, logNote: string, witness: string, line: string) {
      if (newest !== null && head.size <= newest.size) return;
      const key = bodyKey(head);
      let entry = collecting.get(key);
      if (entry === undefined) {
        entry = { head, logNote, lines: new Map() };
        collecting.set(key, entry);
        if (collecting.size > COLLECTING) collecting.delete(collecting.keys().next().value!);
      }
      entry.lines.set(witness, line);
      if (entry.lines.size >= quorum) promote(entry);
    },

    /** The newest cosigned checkpoint once it includes the leaf at `index`; null if none does within `ms`. */
    waitFor(index: number, ms: number): Promise<CosignedCheckpoint | null> {
      if (newest !== null && index < newest.size) return Promise.resolve(newest);
      if (ms <= 0) return Promise.resolve(null);
      return new Promise((resolve) => {
        const waiter = {
          index,
          resolve: (checkpoint: CosignedCheckpoint | null) => {
            clearTimeout(timer);
            resolve(checkpoint);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(null);
        }, ms);
        waiters.add(waiter);
      });
    },

    /** Lets every waiting write go on without a cosigned checkpoint (the app closes). */
    release() {
      for (const waiter of waiters) waiter.resolve(null);
      waiters.clear();
    },
  };
}

export type CosignedCheckpoints = ReturnType<typeof createCosignedCheckpoints>;
