import type { Position } from '../eventstore/port.js';
import { openSqliteFile } from '../sqliteFile.js';
import { assertFieldPath, CheckpointMovedError, type Document, type FieldValue, type Query, type ReadModelStore } from './port.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  collection TEXT    NOT NULL,
  id         TEXT    NOT NULL,
  doc        TEXT    NOT NULL,
  position   INTEGER NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE TABLE IF NOT EXISTS checkpoints (
  projection TEXT PRIMARY KEY,
  position   INTEGER NOT NULL
);`;

const jsonPath = (field: string) => `json_extract(doc, '$.${assertFieldPath(field)}')`;

/**
 * Read models in one SQLite file. Documents and checkpoints change in one transaction, so a
 * projection's effects are applied exactly once. synchronous=NORMAL: a crash may lose the
 * newest commits, but never splits documents from their checkpoint, and the projection
 * simply replays them from the log.
 */
export function openSqliteReadModel(file: string): ReadModelStore {
  const db = openSqliteFile(file, 'NORMAL');
  db.exec(SCHEMA);

  const statements = {
    get: db.prepare<[string, string], { doc: string }>('SELECT doc FROM documents WHERE collection = ? AND id = ?'),
    put: db.prepare(
      `INSERT INTO documents (collection, id, doc, position) VALUES (?, ?, ?, ?)
       ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc, position = excluded.position
       WHERE excluded.position > documents.position`,
    ),
    // A delete leaves a tombstone (doc 'null') so an older put replayed later cannot revive it.
    delete: db.prepare(
      `INSERT INTO documents (collection, id, doc, position) VALUES (?, ?, 'null', ?)
       ON CONFLICT (collection, id) DO UPDATE SET doc = 'null', position = excluded.position
       WHERE excluded.position > documents.position`,
    ),
    getCheckpoint: db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE projection = ?'),
    setCheckpoint: db.prepare(
      `INSERT INTO checkpoints (projection, position) VALUES (?, ?)
       ON CONFLICT (projection) DO UPDATE SET position = excluded.position`,
    ),
    deleteCollection: db.prepare('DELETE FROM documents WHERE collection = ?'),
    renameCollection: db.prepare('UPDATE documents SET collection = ? WHERE collection = ?'),
    deleteCheckpoint: db.prepare('DELETE FROM checkpoints WHERE projection = ?'),
  };

  function getDocument(collection: string, id: string): Document | null {
    const row = statements.get.get(collection, id);
    return row ? (JSON.parse(row.doc) as Document | null) : null;
  }

  const commit = db.transaction(
    (projection: string, changes: Parameters<ReadModelStore['commit']>[1], checkpoint: Position, expected: Position | null) => {
      const stored = statements.getCheckpoint.get(projection)?.position ?? null;
      if (stored !== expected) throw new CheckpointMovedError(projection, expected, stored);
      for (const change of changes) {
        if (change.doc === null) statements.delete.run(change.collection, change.id, change.position);
        else statements.put.run(change.collection, change.id, JSON.stringify(change.doc), change.position);
      }
      statements.setCheckpoint.run(projection, checkpoint);
    },
  );

  const promote = db.transaction((projection: string, staged: Parameters<ReadModelStore['promote']>[1]) => {
    for (const { live, staged: from } of staged.collections) {
      statements.deleteCollection.run(live);
      statements.renameCollection.run(live, from);
    }
    const checkpoint = statements.getCheckpoint.get(staged.projection)?.position ?? null;
    if (checkpoint === null) statements.deleteCheckpoint.run(projection);
    else statements.setCheckpoint.run(projection, checkpoint);
    statements.deleteCheckpoint.run(staged.projection);
  });

  const reset = db.transaction((projection: string, collections: string[]) => {
    for (const collection of collections) statements.deleteCollection.run(collection);
    statements.deleteCheckpoint.run(projection);
  });

  function whereClause(where: Record<string, FieldValue> = {}) {
    const clauses = ['collection = ?', "doc <> 'null'"];
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

  return {
    async ensureIndexes(indexes) {
      for (const { collection, fields } of indexes) {
        const name = `idx_${collection}_${fields.join('_')}`.replace(/[^A-Za-z0-9_]/g, '_');
        const columns = fields.map(jsonPath).join(', ');
        // Partial index per collection: the planner uses it for `collection = '<name>' AND ...`.
        db.exec(
          `CREATE INDEX IF NOT EXISTS ${name} ON documents (${columns}) WHERE collection = '${collection.replace(/'/g, "''")}'`,
        );
      }
    },

    async get(collection, id) {
      return getDocument(collection, id);
    },

    async getMany(collection, ids) {
      const found = new Map<string, Document>();
      for (const id of ids) {
        const doc = getDocument(collection, id);
        if (doc !== null) found.set(id, doc);
      }
      return found;
    },

    async find(collection, query: Query = {}) {
      const { sql, values } = whereClause(query.where);
      const order = (query.orderBy ?? []).map((o) => `${jsonPath(o.field)} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`);
      order.push('id ASC');
      const rows = db
        .prepare<unknown[], { doc: string }>(
          `SELECT doc FROM documents WHERE ${sql} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`,
        )
        .all(collection, ...values, query.limit ?? -1, query.offset ?? 0);
      return rows.map((row) => JSON.parse(row.doc) as Document);
    },

    async count(collection, where) {
      const { sql, values } = whereClause(where);
      const row = db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM documents WHERE ${sql}`).get(collection, ...values);
      return row?.n ?? 0;
    },

    async getCheckpoint(projection) {
      return statements.getCheckpoint.get(projection)?.position ?? null;
    },

    async commit(projection, changes, checkpoint, expected) {
      commit.immediate(projection, changes, checkpoint, expected);
    },

    async promote(projection, staged) {
      promote.immediate(projection, staged);
    },

    async reset(projection, collections) {
      reset.immediate(projection, collections);
    },

    async close() {
      db.close();
    },
  };
}
