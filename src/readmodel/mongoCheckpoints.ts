import { randomUUID } from 'node:crypto';
import { type Db, MongoServerError, ReadPreference } from 'mongodb';
import type { Position } from '../eventstore/eventStore.js';
import { CheckpointMovedError, movesBack } from './readModel.js';

/** Where a projection's checkpoint was last seen, and which generation of it (reset and promote start a new one). */
interface CheckpointHint {
  _id: string;
  position: Position | null;
  generation: string;
}

/** One move of a checkpoint, from `_id`'s position to `to`: inserted once, never changed. */
interface CheckpointClaim {
  _id: string;
  projection: string;
  generation: string;
  to: Position;
  at: Date;
}

export const CHECKPOINT_COLLECTIONS = ['matchlog_checkpoints', 'matchlog_checkpoint_claims'];
const FIRST_GENERATION = 'first';
const DUPLICATE_KEY = 11000;
/** Claims older than this, and behind the hint, are no longer needed by any worker. */
const CLAIM_RETENTION_MS = 60 * 60 * 1000;

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === DUPLICATE_KEY;
const claimId = (projection: string, generation: string, from: Position | null) => `${projection}|${generation}|${from ?? 'start'}`;

/**
 * Projection checkpoints that only one worker can move from a given position, on MongoDB and
 * on FerretDB 1.x alike. A conditional update would not do: FerretDB reads, then writes, so two
 * workers could both see the expected position. A unique insert is atomic on both: moving a
 * checkpoint from P inserts the claim (projection, generation, P), and of two workers only one
 * can. The claim is the commit; the hint document only shortens the walk along the claims and
 * may lag behind them. Reset and promote start a new generation, so old claims stop counting.
 */
export function createMongoCheckpoints(db: Db, now: () => number = Date.now) {
  // Read from the primary whatever the URL asks for documents: a lagging secondary would show
  // an old checkpoint and its claims; and each claim is the commit, so it waits for a majority.
  const options = { readPreference: ReadPreference.primary, writeConcern: { w: 'majority' as const } };
  const hints = db.collection<CheckpointHint>('matchlog_checkpoints', options);
  const claims = db.collection<CheckpointClaim>('matchlog_checkpoint_claims', options);
  /** When each projection last pruned its claims: each prunes its own. */
  const lastPrune = new Map<string, number>();
  /** The index the prune and reset deletes use (projection, generation, then `to`), made once. */
  let indexed: Promise<unknown> | null = null;
  const claimIndex = () => (indexed ??= claims.createIndex({ projection: 1, generation: 1, to: 1 }).catch((error: unknown) => {
    indexed = null;
    throw error;
  }));

  async function current(projection: string): Promise<{ position: Position | null; generation: string }> {
    const hint = await hints.findOne({ _id: projection });
    const generation = hint?.generation ?? FIRST_GENERATION;
    let position = hint?.position ?? null;
    for (;;) {
      const claim = await claims.findOne({ _id: claimId(projection, generation, position) });
      if (claim === null) return { position, generation };
      position = claim.to;
    }
  }

  async function prune(projection: string, generation: string, upTo: Position) {
    if (now() - (lastPrune.get(projection) ?? 0) < CLAIM_RETENTION_MS / 4) return;
    lastPrune.set(projection, now());
    await claimIndex();
    await claims.deleteMany({ projection, generation, to: { $lte: upTo }, at: { $lt: new Date(now() - CLAIM_RETENTION_MS) } });
  }

  /** Starts a new generation at `position`, leaving every earlier claim behind. */
  async function restart(projection: string, position: Position | null) {
    const generation = randomUUID();
    await hints.replaceOne({ _id: projection }, { position, generation }, { upsert: true });
    await claimIndex();
    await claims.deleteMany({ projection, generation: { $ne: generation } });
  }

  return {
    async get(projection: string): Promise<Position | null> {
      return (await current(projection)).position;
    },

    /**
     * Runs `write` and then moves the checkpoint from `expected` to `checkpoint`, unless it is
     * not at `expected` (before or after the write): CheckpointMovedError, checkpoint unmoved.
     */
    async move(projection: string, expected: Position | null, checkpoint: Position, write: () => Promise<void>): Promise<void> {
      const before = await current(projection);
      if (before.position !== expected || movesBack(expected, checkpoint)) throw new CheckpointMovedError(projection, expected, before.position, checkpoint);
      await write();
      if (checkpoint === expected) {
        // Nothing to claim; still say so if it moved while the documents were written.
        const after = await current(projection);
        if (after.position !== expected) throw new CheckpointMovedError(projection, expected, after.position);
        return;
      }
      try {
        await claims.insertOne({
          _id: claimId(projection, before.generation, expected),
          projection,
          generation: before.generation,
          to: checkpoint,
          at: new Date(now()),
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        throw new CheckpointMovedError(projection, expected, (await current(projection)).position);
      }
      try {
        await hints.updateOne({ _id: projection, generation: before.generation }, { $set: { position: checkpoint } }, { upsert: true });
      } catch (error) {
        // A reset or promote started a new generation meanwhile: its hint stands.
        if (!isDuplicateKey(error)) throw error;
      }
      await prune(projection, before.generation, checkpoint);
    },

    /** Sets the checkpoint outright (promote), or clears it (null). */
    set: restart,
  };
}
