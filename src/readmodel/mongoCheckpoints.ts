import { randomUUID } from 'node:crypto';
import { type Collection, type Db, MongoServerError, ReadPreference } from 'mongodb';
import type { Position } from '../domain/logPosition.js';
import { CheckpointMovedError, movesBack } from './readModel.js';

/**
 * A projection's pointer: which generation of its checkpoint is current (reset and promote start
 * a new one), where that generation started, and the MongoDB collection that holds each of its
 * read-model collections in this generation (absent: the collection of the same name, as before
 * pointers). Replacing it is the one atomic step of a reset or a promote, and nothing else
 * writes it: a worker's progress goes to its generation's own document (CheckpointProgress), so
 * no worker can write an older generation's pointer back over a switch (issue 58, N4: FerretDB
 * updates by reading, then replacing the whole document).
 */
export interface CheckpointHint {
  _id: string;
  /** Where the generation started (pointers written before progress documents: where it was last seen). */
  position: Position | null;
  generation: string;
  collections?: Record<string, string>;
  /** Collections the last switch left behind: dropped at the next switch (readers may still be on them). */
  retired?: string[];
}

/** What a projection's pointer says now, its checkpoint walked along the claims. */
export interface Pointer {
  position: Position | null;
  generation: string;
  collections: Record<string, string>;
  retired: string[];
}

/**
 * How far a generation's checkpoint was last seen: only shortens the walk along the claims, so
 * it may lag behind them. One per projection and generation, so only that generation's workers write it.
 */
interface CheckpointProgress {
  _id: string;
  projection: string;
  generation: string;
  position: Position;
}

/** One move of a checkpoint, from `_id`'s position to `to`: inserted once, never changed. */
interface CheckpointClaim {
  _id: string;
  projection: string;
  generation: string;
  to: Position;
  at: Date;
}

export const CHECKPOINT_COLLECTIONS = ['matchlog_checkpoints', 'matchlog_checkpoint_progress', 'matchlog_checkpoint_claims'];
const FIRST_GENERATION = 'first';
const DUPLICATE_KEY = 11000;
/** Claims older than this, and behind the progress noted, are no longer needed by any worker. */
const CLAIM_RETENTION_MS = 60 * 60 * 1000;

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === DUPLICATE_KEY;
const claimId = (projection: string, generation: string, from: Position | null) => `${projection}|${generation}|${from ?? 'start'}`;
const progressId = (projection: string, generation: string) => `${projection}|${generation}`;

/** Notes how far a generation's checkpoint is: only further than noted (a duplicate key: it is already further). */
async function noteProgress(progress: Collection<CheckpointProgress>, projection: string, generation: string, position: Position) {
  try {
    await progress.updateOne(
      { _id: progressId(projection, generation), position: { $lt: position } },
      { $set: { projection, generation, position } },
      { upsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Projection checkpoints that only one worker can move from a given position, on MongoDB and
 * on FerretDB 1.x alike. A conditional update would not do: FerretDB reads, then writes, so two
 * workers could both see the expected position. A unique insert is atomic on both: moving a
 * checkpoint from P inserts the claim (projection, generation, P), and of two workers only one
 * can. The claim is the commit; the progress document only shortens the walk along the claims
 * and may lag behind them. Reset and promote start a new generation, so old claims stop counting.
 */
export function createMongoCheckpoints(db: Db, now: () => number = Date.now, onPointer: (hint: CheckpointHint) => void = () => {}) {
  // Read from the primary whatever the URL asks for documents: a lagging secondary would show
  // an old checkpoint and its claims; and each claim is the commit, so it waits for a majority.
  const options = { readPreference: ReadPreference.primary, writeConcern: { w: 'majority' as const } };
  const hints = db.collection<CheckpointHint>('matchlog_checkpoints', options);
  const progress = db.collection<CheckpointProgress>('matchlog_checkpoint_progress', options);
  const claims = db.collection<CheckpointClaim>('matchlog_checkpoint_claims', options);
  /** When each projection last pruned its claims: each prunes its own. */
  const lastPrune = new Map<string, number>();
  /** The index the prune and reset deletes use (projection, generation, then `to`), made once. */
  let indexed: Promise<unknown> | null = null;
  const claimIndex = () =>
    (indexed ??= claims.createIndex({ projection: 1, generation: 1, to: 1 }).catch((error: unknown) => {
      indexed = null;
      throw error;
    }));

  async function current(projection: string): Promise<Pointer> {
    const hint = await hints.findOne({ _id: projection });
    if (hint !== null) onPointer(hint);
    const generation = hint?.generation ?? FIRST_GENERATION;
    const pointer = { collections: hint?.collections ?? {}, retired: hint?.retired ?? [], generation };
    const seen = await progress.findOne({ _id: progressId(projection, generation) });
    // The further of the two: a pointer written before progress documents holds where it was last seen.
    const noted = Math.max(seen?.position ?? -Infinity, hint?.position ?? -Infinity);
    let position: Position | null = noted === -Infinity ? null : noted;
    for (;;) {
      const claim = await claims.findOne({ _id: claimId(projection, generation, position) });
      if (claim === null) return { ...pointer, position };
      position = claim.to;
    }
  }

  async function prune(projection: string, generation: string, upTo: Position) {
    if (now() - (lastPrune.get(projection) ?? 0) < CLAIM_RETENTION_MS / 4) return;
    lastPrune.set(projection, now());
    await claimIndex();
    await claims.deleteMany({ projection, generation, to: { $lte: upTo }, at: { $lt: new Date(now() - CLAIM_RETENTION_MS) } });
  }

  /** Starts a new generation at `position` with these collections, in one write; every earlier claim is left behind. */
  async function restart(projection: string, position: Position | null, collections: Record<string, string> = {}, retired: string[] = []) {
    const hint: CheckpointHint = { _id: projection, position, generation: randomUUID(), collections, retired };
    await hints.replaceOne({ _id: projection }, hint, { upsert: true });
    onPointer(hint);
    await claimIndex();
    await claims.deleteMany({ projection, generation: { $ne: hint.generation } });
    await progress.deleteMany({ projection, generation: { $ne: hint.generation } });
  }

  return {
    async get(projection: string): Promise<Position | null> {
      return (await current(projection)).position;
    },

    /** The projection's pointer: checkpoint, generation, collections. */
    pointer: current,

    /** Every projection's pointer document, as stored. */
    async pointers(): Promise<CheckpointHint[]> {
      return hints.find({}).toArray();
    },

    /** Every projection's collections, as their pointers name them. */
    async allCollections(): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      for (const hint of await hints.find({}, { projection: { collections: 1 } }).toArray()) {
        for (const [name, stored] of Object.entries(hint.collections ?? {})) found.set(name, stored);
      }
      return found;
    },

    /**
     * Runs `write` and then moves the checkpoint from `expected` to `checkpoint`, unless it is
     * not at `expected` (before or after the write): CheckpointMovedError, checkpoint unmoved.
     */
    async move(
      projection: string,
      expected: Position | null,
      checkpoint: Position,
      write: (collections: Record<string, string>) => Promise<void>,
    ): Promise<void> {
      const before = await current(projection);
      if (before.position !== expected || movesBack(expected, checkpoint)) throw new CheckpointMovedError(projection, expected, before.position, checkpoint);
      // Into the collections of this generation: after a switch they are no longer read, and the claim below no longer counts.
      await write(before.collections);
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
      // Never the pointer itself: a switch made meanwhile stands (see CheckpointHint).
      await noteProgress(progress, projection, before.generation, checkpoint);
      await prune(projection, before.generation, checkpoint);
    },

    /** Sets the checkpoint outright, or clears it (null), and the collections with it: a new generation. */
    set: restart,
  };
}
