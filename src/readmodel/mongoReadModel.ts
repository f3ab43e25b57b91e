import { randomUUID } from 'node:crypto';
import { type Collection, type Db, MongoClient, MongoServerError, ReadPreference } from 'mongodb';
import type { Position } from '../domain/logPosition.js';
import { encodeDocument } from './documentEncoding.js';
import { CHECKPOINT_COLLECTIONS, createMongoCheckpoints } from './mongoCheckpoints.js';
import { leftoverCollections } from './mongoLeftovers.js';
import { mongoReader } from './mongoReader.js';
import { type GuardedWrite, type StoredDocument, writeAfterReading, writeConditionally } from './mongoGuardedWrites.js';
import { assertFieldPath, type DocumentChange, type ProjectionCommit, type ReadModelStore } from './readModel.js';

const NAMESPACE_NOT_FOUND = 26;
const INDEX_CONFLICTS = [85, 86];
const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;
/** How long a reader may go on reading the collections a pointer named before the switch. */
const POINTER_REFRESH_MS = 1000;

/** The database named in the URL's path, `matchlog` when it names none. */
export function databaseName(url: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/i.exec(url)?.[1];
  return path ? decodeURIComponent(path) : 'matchlog';
}

/** Consecutive changes to the same collection, grouped, in order. */
function runsByCollection(changes: DocumentChange[]): { collection: string; changes: DocumentChange[] }[] {
  const runs: { collection: string; changes: DocumentChange[] }[] = [];
  for (const change of changes) {
    const last = runs.at(-1);
    if (last?.collection === change.collection) last.changes.push(change);
    else runs.push({ collection: change.collection, changes: [change] });
  }
  return runs;
}

/**
 * Read models in MongoDB (or a MongoDB-wire server such as FerretDB), one collection per
 * read-model collection, checkpoints as in mongoCheckpoints.ts; selected by a `mongodb://`
 * READ_MODEL_URL whose path names the database.
 *
 * No multi-document transactions: a commit writes each document on its own, then moves the
 * checkpoint only if it is still where the caller expects. Each write is guarded by the
 * position of the event that made it: it applies only over an older position, so replays,
 * redelivery and a lagging duplicate worker change nothing (a delete leaves a tombstone so
 * an older put cannot bring the document back). What this does not give: readers may see a
 * batch's documents before its checkpoint moves, and a projection that derives one document
 * from another must itself skip events a document already reflects (as publicView does by
 * revision), since a crash can leave part of a batch applied. On FerretDB 1.x a guarded write
 * is not atomic (mongoGuardedWrites.ts), so two workers running the same projection at once
 * could, rarely, leave a document a version behind there; on MongoDB they cannot.
 *
 * A projection's checkpoint document also names the MongoDB collection each of its read-model
 * collections lives in (the same name until it is first rebuilt or reset). A promote or reset
 * replaces that document in one write, pointing at collections built (or made empty) under new
 * names: nothing is renamed, so no runner committing meanwhile can recreate or write what
 * readers see, on MongoDB and FerretDB alike.
 */
export interface MongoReadModelOptions {
  /**
   * How documents are found and guarded writes made: MongoDB's way (`$in`, conditional bulk
   * replaces) or FerretDB's (by `_id` alone, insert first: mongoGuardedWrites.ts). `auto`
   * picks by server; tests force each.
   */
  access?: 'auto' | 'mongodb' | 'ferretdb';
}

export async function openMongoReadModel(url: string, options: MongoReadModelOptions = {}): Promise<ReadModelStore> {
  const client = new MongoClient(url, { appName: 'matchlog' });
  await client.connect();
  const db = client.db(databaseName(url));
  // Writes, and the reads they depend on, go to the primary whatever the URL prefers for readers.
  const primary = client.db(databaseName(url), { readPreference: ReadPreference.primary });
  /** Each read-model collection's MongoDB collection, as the pointers last read said (absent: the same name). */
  const storedNames = new Map<string, string>();
  let namesReadAt = -Infinity;
  let namesReading: Promise<void> | null = null;
  const checkpoints = createMongoCheckpoints(db, Date.now, (hint) => {
    for (const [name, stored] of Object.entries(hint.collections ?? {})) storedNames.set(name, stored);
  });
  // FerretDB answers buildInfo with its own version.
  const access = options.access ?? 'auto';
  const byIdAlone = access === 'auto' ? typeof (await db.admin().command({ buildInfo: 1 })).ferretdbVersion === 'string' : access === 'ferretdb';

  /** A MongoDB collection by its own name (a read-model collection's, or one a pointer names). */
  function collection(name: string): Collection<StoredDocument> {
    if (!COLLECTION_NAME.test(name) || CHECKPOINT_COLLECTIONS.includes(name)) throw new Error(`invalid read-model collection name: ${name}`);
    return primary.collection<StoredDocument>(name);
  }

  /**
   * The MongoDB collection a reader finds a read-model collection in. Pointers are read again
   * when older than POINTER_REFRESH_MS, and whenever a checkpoint is read (a write waiting for
   * its projection reads the pointer with the checkpoint, so it then reads the right collection).
   * `from`: with the URL's read preference (readers), or the primary (a projection's own reads).
   */
  async function readable(name: string, from: Db = db): Promise<Collection<StoredDocument>> {
    collection(name);
    if (Date.now() - namesReadAt > POINTER_REFRESH_MS) {
      namesReading ??= (async () => {
        try {
          const names = await checkpoints.allCollections();
          for (const [logical, stored] of names) storedNames.set(logical, stored);
          namesReadAt = Date.now();
        } finally {
          namesReading = null;
        }
      })();
      await namesReading;
    }
    return from.collection<StoredDocument>(collection(storedNames.get(name) ?? name).collectionName);
  }

  /** A new, empty MongoDB collection's name for a read-model collection: `<name>__g<12 hex digits>`. */
  const freshName = (name: string) => `${name}__g${randomUUID().replace(/-/g, '').slice(0, 12)}`;

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

  async function writeChanges(name: string, changes: DocumentChange[]): Promise<void> {
    const writes = changes.map(
      (change): GuardedWrite => ({
        id: change.id,
        position: change.position,
        replacement:
          change.doc === null
            ? { position: change.position, deleted: true }
            : { position: change.position, doc: encodeDocument({ ...change.doc, id: change.id }) },
      }),
    );
    await (byIdAlone ? writeAfterReading : writeConditionally)(collection(name), writes);
  }

  async function commitOne({ projection, changes, checkpoint, expected }: ProjectionCommit) {
    await checkpoints.move(projection, expected, checkpoint, async (collections) => {
      // In the given order, since a crash may stop it anywhere; a run of one collection at a time.
      for (const run of runsByCollection(changes)) {
        collection(run.collection);
        await writeChanges(collections[run.collection] ?? run.collection, run.changes);
      }
    });
  }

  return {
    async ensureIndexes(indexes) {
      for (const { collection: name, fields } of indexes) {
        await (await readable(name)).createIndex(Object.fromEntries(fields.map((field) => [`doc.${assertFieldPath(field)}`, 1])));
      }
    },

    ...mongoReader(readable, byIdAlone, checkpoints.get),

    forUpdates: mongoReader((name) => readable(name, primary), byIdAlone, checkpoints.get),

    commit: (projection, changes, checkpoint, expected) => commitOne({ projection, changes, checkpoint, expected }),

    async commitAll(commits) {
      for (const commit of commits) await commitOne(commit);
    },

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

    async close() {
      await client.close();
    },
  };
}
