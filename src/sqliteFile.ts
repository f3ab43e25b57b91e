import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens (creating it and its folder when missing) a SQLite file in WAL mode. `FULL` fsyncs
 * every commit (the log); `NORMAL` may lose the newest commits on power loss but never
 * corrupts (rebuildable read models).
 */
export function openSqliteFile(file: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  return db;
}
