import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Position } from '../domain/logPosition.js';
import { assertFieldPath } from './readModel.js';

const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;
const COLUMNS = 'id TEXT PRIMARY KEY, doc TEXT NOT NULL, position INTEGER NOT NULL';
const TABLE_PREFIX = 'rm_';

/** The table of a collection, quoted for SQL. Names come from code, but are checked anyway. */
export function table(collection: string): string {
  if (!COLLECTION_NAME.test(collection)) throw new Error(`invalid read-model collection name: ${collection}`);
  return `"${TABLE_PREFIX}${collection}"`;
}

/** A document field as an SQL expression (for WHERE, ORDER BY and indexes). */
export const jsonPath = (field: string) => `json_extract(doc, '$.${assertFieldPath(field)}')`;

/**
 * The read model's tables, one per collection (id, document text, position of the event that
 * wrote it): each made on first use with its statements prepared once; indexes; and the
 * rebuild's switch, which drops the live table and renames the staged one.
 */
export function collectionTables(db: Database.Database) {
  const prepared = new Map<string, ReturnType<typeof prepare>>();
  function prepare(name: string) {
    const t = table(name);
    db.exec(`CREATE TABLE IF NOT EXISTS ${t} (${COLUMNS})`);
    return {
      get: db.prepare<[string], { doc: string }>(`SELECT doc FROM ${t} WHERE id = ?`),
      /** Only a newer position replaces a document, so a replayed older event changes nothing. */
      put: db.prepare<[string, string, Position]>(
        `INSERT INTO ${t} (id, doc, position) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, position = excluded.position WHERE excluded.position > ${t}.position`,
      ),
      clear: db.prepare(`DELETE FROM ${t}`),
    };
  }

  /** A collection's statements (its table made first if need be). */
  function collection(name: string) {
    let statements = prepared.get(name);
    if (!statements) {
      statements = prepare(name);
      prepared.set(name, statements);
    }
    return statements;
  }

  /** The column lists of a collection's indexes, as written in their CREATE INDEX. */
  function indexedColumns(name: string): string[] {
    return db
      .prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(`${TABLE_PREFIX}${name}`)
      .map((index) => /\((.*)\)$/s.exec(index.sql)?.[1] ?? '');
  }

  /**
   * An index on these columns unless the table has one. Names are unique, not derived from the
   * collection: a rebuild renames the staged table, and its indexes keep their names.
   */
  function ensureIndex(name: string, columns: string) {
    collection(name);
    if (indexedColumns(name).includes(columns)) return;
    db.exec(`CREATE INDEX "idx_${name}_${randomUUID().slice(0, 8)}" ON ${table(name)} (${columns})`);
  }

  return {
    collection,
    ensureIndex,
    /** The live table goes and the staged one takes its name, with at least the live one's indexes; call inside a transaction. */
    replace(live: string, staged: string) {
      collection(live);
      collection(staged);
      const liveIndexes = indexedColumns(live);
      db.exec(`DROP TABLE ${table(live)}; ALTER TABLE ${table(staged)} RENAME TO ${table(live)}`);
      for (const columns of liveIndexes) ensureIndex(live, columns);
      db.exec(`CREATE TABLE ${table(staged)} (${COLUMNS})`);
    },
  };
}
