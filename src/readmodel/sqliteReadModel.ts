import type Database from 'better-sqlite3';
import { openSqliteFile } from '../platform/sqliteFile.js';
import { collectionTables, jsonPath, table } from './sqliteCollectionTables.js';
import {
  CheckpointMovedError,
  type CollectionName,
  movesBack,
  type Document,
  type Identified,
  type FieldValue,
  type ProjectionCommit,
  type Query,
  type ReadModelStore,
} from './readModel.js';
import { isRecord } from '../platform/isRecord.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS checkpoints (
  projection TEXT PRIMARY KEY,
  position   INTEGER NOT NULL
);`;

/** Read models before tables per collection kept every document in one table; they are rebuilt. */
const OLD_SCHEMA_TABLE = 'documents';

/** Stored text of a document: a tombstone ('null') is no document. */
const parseDocument = <Doc extends Identified>(text: string): Doc | null => JSON.parse(text);

/** Most query texts kept prepared; past it they are prepared again (a bound for code that would build many). */
const MAX_PREPARED_QUERIES = 256;

/** A delete leaves a tombstone (doc 'null') so an older put replayed later cannot revive it. */
const LIVE = "doc <> 'null'";

const checkpointStatements = (db: Database.Database) => ({
  get: db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE projection = ?'),
  set: db.prepare(
    `INSERT INTO checkpoints (projection, position) VALUES (?, ?)
     ON CONFLICT (projection) DO UPDATE SET position = excluded.position`,
  ),
  delete: db.prepare('DELETE FROM checkpoints WHERE projection = ?'),
});

/** Queries prepared once by their text: the code asks a handful of shapes, each with its values bound. */
function preparedQueries(db: Database.Database) {
  const queries = new Map<string, Database.Statement<unknown[], unknown>>();
  return function query<Row>(sql: string): Database.Statement<unknown[], Row> {
    let statement = queries.get(sql);
    if (statement === undefined) {
      if (queries.size >= MAX_PREPARED_QUERIES) queries.clear();
      statement = db.prepare<unknown[], unknown>(sql);
      queries.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], Row>;
  };
}

/** The live documents matching `where` (field equality; null matches a missing field too), as SQL and its values. */
function whereClause(where: Record<string, FieldValue> = {}) {
  const clauses = [LIVE];
  const values: FieldValue[] = [];
  for (const [field, value] of Object.entries(where)) {
    if (value === null) clauses.push(`${jsonPath(field)} IS NULL`);
    else {
      clauses.push(`${jsonPath(field)} = ?`);
      values.push(typeof value === 'boolean' ? Number(value) : value);
    }
  }
  return { sql: clauses.join(' AND '), values };
}

/** Older WAL frames still hold what was deleted: copies the zeroed pages in and empties the WAL. */
async function dropDeletedBytes(db: Database.Database): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const results: unknown = db.pragma('wal_checkpoint(TRUNCATE)');
    if (Array.isArray(results) && isRecord(results[0]) && results[0].busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("deleted documents may still be in the read model's -wal file: another process kept reading it; run the erasure again");
}

/**
 * Read models in one SQLite file, a table per collection. Documents and checkpoints change in
 * one transaction, so a projection's effects are applied exactly once; a rebuild's switch drops
 * the live table and renames the staged one, whatever its size. synchronous=NORMAL: a crash
 * may lose the newest commits, but never splits documents from their checkpoint, and the
 * projection simply replays them from the log. Several processes may share the file: write
 * transactions begin immediate, and statements prepared by one process follow tables another
 * renamed (SQLite prepares them again on a schema change).
 */
export function openSqliteReadModel(file: string): ReadModelStore {
  const db = openSqliteFile(file, 'NORMAL');
  // What a commit deletes or replaces is overwritten with zeros, so an erased match's documents
  // leave no copy in the file's free space (docs/auditing.md).
  db.pragma('secure_delete = ON');
  db.transaction(() => {
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(OLD_SCHEMA_TABLE)) {
      db.exec(`DROP TABLE ${OLD_SCHEMA_TABLE}; DROP TABLE IF EXISTS checkpoints;`);
    }
    db.exec(SCHEMA);
  }).immediate();

  const checkpoints = checkpointStatements(db);
  const query = preparedQueries(db);
  const getCheckpoint = (projection: string) => checkpoints.get.get(projection)?.position ?? null;

  const tables = collectionTables(db);
  const { collection } = tables;

  /** A stored document; JSON.parse's value is taken as the collection's document type (see Collection). */
  function getDocument<Doc extends Identified = Document>(name: CollectionName<Doc>, id: string): Doc | null {
    const row = collection(name).get.get(id);
    return row ? parseDocument<Doc>(row.doc) : null;
  }

  const commitAll = db.transaction((commits: ProjectionCommit[]) => {
    for (const { projection, changes, checkpoint, expected } of commits) {
      const stored = getCheckpoint(projection);
      if (stored !== expected || movesBack(expected, checkpoint)) throw new CheckpointMovedError(projection, expected, stored, checkpoint);
      for (const change of changes) collection(change.collection).put.run(change.id, JSON.stringify(change.doc), change.position);
      checkpoints.set.run(projection, checkpoint);
    }
  });

  const promote = db.transaction((projection: string, staged: Parameters<ReadModelStore['promote']>[1]) => {
    for (const { live, staged: from } of staged.collections) tables.replace(live, from);
    const checkpoint = getCheckpoint(staged.projection);
    if (checkpoint === null) checkpoints.delete.run(projection);
    else checkpoints.set.run(projection, checkpoint);
    checkpoints.delete.run(staged.projection);
  });

  const reset = db.transaction((projection: string, names: string[]) => {
    for (const name of names) collection(name).clear.run();
    checkpoints.delete.run(projection);
  });

  const store: ReadModelStore = {
    get forUpdates() {
      return store;
    },

    async ensureIndexes(indexes) {
      for (const { collection: name, fields } of indexes) tables.ensureIndex(name, fields.map(jsonPath).join(', '));
    },

    async get<Doc extends Identified = Document>(name: CollectionName<Doc>, id: string) {
      return getDocument<Doc>(name, id);
    },

    async getMany<Doc extends Identified = Document>(name: CollectionName<Doc>, ids: string[]) {
      const found = new Map<string, Doc>();
      for (const id of ids) {
        const doc = getDocument<Doc>(name, id);
        if (doc !== null) found.set(id, doc);
      }
      return found;
    },

    async find<Doc extends Identified = Document>(name: CollectionName<Doc>, q: Query = {}) {
      collection(name);
      const { sql, values } = whereClause(q.where);
      const order = (q.orderBy ?? []).map((o) => `${jsonPath(o.field)} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`);
      order.push('id ASC');
      const select = query<{ doc: string }>(`SELECT doc FROM ${table(name)} WHERE ${sql} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`);
      const rows = select.all(...values, q.limit ?? -1, q.offset ?? 0);
      return rows.flatMap((row) => parseDocument<Doc>(row.doc) ?? []);
    },

    async count(name, where) {
      collection(name);
      const { sql, values } = whereClause(where);
      return query<{ n: number }>(`SELECT count(*) AS n FROM ${table(name)} WHERE ${sql}`).get(...values)?.n ?? 0;
    },

    async getCheckpoint(projection) {
      return getCheckpoint(projection);
    },

    async commit(projection, changes, checkpoint, expected) {
      commitAll.immediate([{ projection, changes, checkpoint, expected }]);
    },

    async commitAll(commits) {
      commitAll.immediate(commits);
    },

    async promote(projection, staged) {
      promote.immediate(projection, staged);
    },

    async reset(projection, names) {
      reset.immediate(projection, names);
    },

    dropDeletedBytes: () => dropDeletedBytes(db),

    async close() {
      db.close();
    },
  };
  return store;
}
