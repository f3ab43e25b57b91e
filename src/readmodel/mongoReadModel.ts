import { type Collection, type Db, MongoClient, ReadPreference } from 'mongodb';
import { encodeDocument } from './documentEncoding.js';
import { CHECKPOINT_COLLECTIONS, createMongoCheckpoints } from './mongoCheckpoints.js';
import { COLLECTION_NAME, mongoSwitches } from './mongoSwitches.js';
import { mongoReader } from './mongoReader.js';
import { type GuardedWrite, type StoredDocument, writeAfterReading, writeConditionally } from './mongoGuardedWrites.js';
import { assertFieldPath, type DocumentChange, type ProjectionCommit, type ReadModelStore } from './readModel.js';

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

    ...mongoSwitches({ db, checkpoints, collection }),

    async close() {
      await client.close();
    },
  };
}
