import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens (creating it and its folder when missing) a SQLite file in WAL mode; other processes
 * may have it open too (a lock they hold is waited for up to 5 s). `FULL` fsyncs
 * every commit (the log); `NORMAL` may lose the newest commits on power loss but never
 * corrupts (rebuildable read models).
 */
export function openSqliteFile(file: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // First: switching a new file to WAL takes a lock that another process opening it may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  return db;
}
