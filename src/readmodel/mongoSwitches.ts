import { randomUUID } from 'node:crypto';
import { type Collection, type Db, MongoServerError } from 'mongodb';
import type { Position } from '../domain/logPosition.js';
import { CHECKPOINT_COLLECTIONS, type createMongoCheckpoints } from './mongoCheckpoints.js';
import { leftoverCollections } from './mongoLeftovers.js';
import type { StoredDocument } from './mongoGuardedWrites.js';
import type { ReadModelStore } from './readModel.js';

const NAMESPACE_NOT_FOUND = 26;
const INDEX_CONFLICTS = [85, 86];
export const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;

/** A new, empty MongoDB collection's name for a read-model collection: `<name>__g<12 hex digits>`. */
const freshName = (name: string) => `${name}__g${randomUUID().replace(/-/g, '').slice(0, 12)}`;

interface SwitchDeps {
  db: Db;
  checkpoints: ReturnType<typeof createMongoCheckpoints>;
  /** A MongoDB collection by its own name, the name checked. */
  collection: (name: string) => Collection<StoredDocument>;
}

/**
 * How a MongoDB read model switches a projection to other collections (./mongoReadModel.ts says
 * why nothing is renamed): a rebuild's promote, a reset, and dropping what switches left behind.
 */
export function mongoSwitches({ db, checkpoints, collection }: SwitchDeps): Pick<ReadModelStore, 'promote' | 'reset' | 'dropDeletedBytes'> {
  async function dropAll(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      try {
        await collection(name).drop();
      } catch (error) {
        if (!(error instanceof MongoServerError) || error.code !== NAMESPACE_NOT_FOUND) throw error;
      }
    }
  }

  /** Gives `to` the indexes `from` has (by key; one already there under another name is good enough). */
  async function copyIndexes(from: string, to: string): Promise<void> {
    const indexes = (await db.listCollections({ name: from }, { nameOnly: true }).toArray()).length > 0 ? await collection(from).indexes() : [];
    for (const index of indexes) {
      if (index.name === '_id_') continue;
      try {
        await collection(to).createIndex(index.key, { name: index.name });
      } catch (error) {
        if (!(error instanceof MongoServerError) || !(typeof error.code === 'number' && INDEX_CONFLICTS.includes(error.code))) throw error;
      }
    }
  }

  /**
   * Points `projection` at new collections and checkpoint in one write (its pointer document):
   * a runner still committing to the old ones writes where no reader looks, and its claim is of
   * the old generation. What the previous switch left behind is dropped now; what this one
   * leaves behind, at the next (a reader may still be on it for up to POINTER_REFRESH_MS).
   */
  async function switchTo(projection: string, position: Position | null, collections: Record<string, string>): Promise<void> {
    const before = await checkpoints.pointer(projection);
    const live = new Set(Object.values(collections));
    const leftBehind = Object.keys(collections)
      .map((name) => before.collections[name] ?? name)
      .filter((name) => !live.has(name));
    await checkpoints.set(projection, position, { ...before.collections, ...collections }, leftBehind);
    await dropAll(before.retired.filter((name) => !live.has(name)));
  }

  return {
    async promote(projection, staged) {
      const built = await checkpoints.pointer(staged.projection);
      const live = await checkpoints.pointer(projection);
      const collections: Record<string, string> = {};
      for (const { live: name, staged: from } of staged.collections) {
        collection(name);
        collections[name] = built.collections[from] ?? from;
        // With at least the live collection's indexes (those made at start).
        await copyIndexes(live.collections[name] ?? name, collections[name]);
      }
      await switchTo(projection, built.position, collections);
      // The staged names start empty; what they held is live now.
      await checkpoints.set(staged.projection, null, Object.fromEntries(staged.collections.map(({ staged: from }) => [from, freshName(from)])));
      await dropAll(built.retired);
    },

    async reset(projection, collections) {
      const live = await checkpoints.pointer(projection);
      const fresh: Record<string, string> = {};
      for (const name of collections) {
        collection(name);
        fresh[name] = freshName(name);
      }
      // Named before they are made, so that no erasure meanwhile takes them for leftovers.
      await switchTo(projection, null, fresh);
      // The indexes made at start stay.
      for (const name of collections) await copyIndexes(live.collections[name] ?? name, fresh[name] ?? name);
    },

    async dropDeletedBytes() {
      // What the switches left behind still holds what was erased since: dropped now, though a
      // reader may still be on one for up to POINTER_REFRESH_MS (it reads nothing there then).
      // WiredTiger reuses freed space; compacting is an operator's step (docs/auditing.md).
      const existing = (await db.listCollections({}, { nameOnly: true }).toArray()).map(({ name }) => name);
      const leftovers = leftoverCollections(
        existing.filter((name) => COLLECTION_NAME.test(name) && !CHECKPOINT_COLLECTIONS.includes(name)),
        await checkpoints.pointers(),
      );
      await dropAll(leftovers);
    },
  };
}
