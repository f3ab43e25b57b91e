import { type Collection, type Filter, MongoClient, MongoServerError } from 'mongodb';
import { decodeDocument, encodeDocument, encodeQueryValue } from './documentEncoding.js';
import { CHECKPOINT_COLLECTIONS, createMongoCheckpoints } from './mongoCheckpoints.js';
import { type GuardedWrite, type StoredDocument, writeAfterReading, writeConditionally } from './mongoGuardedWrites.js';
import {
  assertFieldPath,
  type Document,
  type DocumentChange,
  type FieldValue,
  type Query,
  type Collection as DocumentCollection,
  documentOf,
  type ProjectionCommit,
  type ReadModelStore,
} from './readModel.js';

const NOT_IMPLEMENTED = 238;
const NAMESPACE_NOT_FOUND = 26;
const INDEX_CONFLICTS = [85, 86];
const LIVE: Filter<StoredDocument> = { deleted: { $ne: true } };
const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;

/** The database named in the URL's path, `matchlog` when it names none. */
function databaseName(url: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/i.exec(url)?.[1];
  return path ? decodeURIComponent(path) : 'matchlog';
}

function isDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string';
}

function decode<Doc extends Document>(name: DocumentCollection<Doc>, stored: StoredDocument | null): Doc | null {
  if (stored === null || stored.deleted || stored.doc === undefined) return null;
  const doc = decodeDocument(stored.doc);
  if (!isDocument(doc)) throw new Error(`stored read-model document ${stored._id} has no id`);
  return documentOf(name, doc);
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

function whereFilter(where: Record<string, FieldValue> = {}): Filter<StoredDocument> {
  const filter: Filter<StoredDocument> = { ...LIVE };
  // Equality on null also matches a missing field, as SQLite's `IS NULL` does.
  for (const [field, value] of Object.entries(where)) filter[`doc.${assertFieldPath(field)}`] = encodeQueryValue(value);
  return filter;
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
  const checkpoints = createMongoCheckpoints(db);
  // FerretDB answers buildInfo with its own version.
  const access = options.access ?? 'auto';
  const byIdAlone =
    access === 'auto' ? typeof (await db.admin().command({ buildInfo: 1 })).ferretdbVersion === 'string' : access === 'ferretdb';

  function collection(name: string): Collection<StoredDocument> {
    if (!COLLECTION_NAME.test(name) || CHECKPOINT_COLLECTIONS.includes(name)) throw new Error(`invalid read-model collection name: ${name}`);
    return db.collection<StoredDocument>(name);
  }

  async function collectionExists(name: string): Promise<boolean> {
    return (await db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
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

  /** renameCollection with dropTarget, or drop-then-rename where the server lacks it (FerretDB 1.x). */
  async function replaceCollection(live: string, staged: string): Promise<void> {
    const liveIndexes = (await collectionExists(live)) ? await collection(live).indexes() : [];
    for (const index of liveIndexes) {
      if (index.name === '_id_') continue;
      try {
        await collection(staged).createIndex(index.key, { name: index.name });
      } catch (error) {
        // The staged collection has it already, under another name: good enough.
        if (!(error instanceof MongoServerError) || !(typeof error.code === 'number' && INDEX_CONFLICTS.includes(error.code))) throw error;
      }
    }
    try {
      await collection(staged).rename(live, { dropTarget: true });
    } catch (error) {
      if (!(error instanceof MongoServerError) || error.code !== NOT_IMPLEMENTED) throw error;
      try {
        await collection(live).drop();
      } catch (dropError) {
        if (!(dropError instanceof MongoServerError) || dropError.code !== NAMESPACE_NOT_FOUND) throw dropError;
      }
      await collection(staged).rename(live);
    }
  }

  async function commitOne({ projection, changes, checkpoint, expected }: ProjectionCommit) {
    await checkpoints.move(projection, expected, checkpoint, async () => {
      // In the given order, since a crash may stop it anywhere; a run of one collection at a time.
      for (const run of runsByCollection(changes)) await writeChanges(run.collection, run.changes);
    });
  }

  return {
    async ensureIndexes(indexes) {
      for (const { collection: name, fields } of indexes) {
        await collection(name).createIndex(Object.fromEntries(fields.map((field) => [`doc.${assertFieldPath(field)}`, 1])));
      }
    },

    async get<Doc extends Document>(name: DocumentCollection<Doc>, id: string) {
      return decode(name, await collection(name).findOne({ _id: id }));
    },

    async getMany<Doc extends Document>(name: DocumentCollection<Doc>, ids: string[]) {
      const unique = [...new Set(ids)];
      // FerretDB 1.x reads and decodes every document of the collection for `$in`, but hands a
      // filter of `_id` alone to SQLite, which stops at the match: so there, one find per id.
      const stored = byIdAlone
        ? await Promise.all(unique.map((id) => collection(name).findOne({ _id: id })))
        : await collection(name).find({ _id: { $in: unique } }).toArray();
      const found = new Map<string, Doc>();
      for (const one of stored) {
        const doc = decode(name, one);
        if (one !== null && doc !== null) found.set(one._id, doc);
      }
      return found;
    },

    async find<Doc extends Document>(name: DocumentCollection<Doc>, query: Query = {}) {
      if (query.limit === 0) return [];
      const sort: Record<string, 1 | -1> = {};
      for (const { field, direction } of query.orderBy ?? []) sort[`doc.${assertFieldPath(field)}`] = direction === 'desc' ? -1 : 1;
      sort._id = 1;
      let cursor = collection(name).find(whereFilter(query.where)).sort(sort);
      if (query.offset) cursor = cursor.skip(query.offset);
      if (query.limit !== undefined) cursor = cursor.limit(query.limit);
      const docs = await cursor.toArray();
      return docs.flatMap((stored) => decode(name, stored) ?? []);
    },

    async count(name, where) {
      return collection(name).countDocuments(whereFilter(where));
    },

    getCheckpoint: checkpoints.get,

    commit: (projection, changes, checkpoint, expected) => commitOne({ projection, changes, checkpoint, expected }),

    async commitAll(commits) {
      for (const commit of commits) await commitOne(commit);
    },

    async promote(projection, staged) {
      for (const { live, staged: from } of staged.collections) {
        if (await collectionExists(from)) await replaceCollection(live, from);
        else await collection(live).deleteMany({});
      }
      await checkpoints.set(projection, await checkpoints.get(staged.projection));
      await checkpoints.set(staged.projection, null);
    },

    async reset(projection, collections) {
      // Emptied rather than dropped, so the indexes made at start stay.
      for (const name of collections) await collection(name).deleteMany({});
      await checkpoints.set(projection, null);
    },

    async close() {
      await client.close();
    },
  };
}
