import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir, makePrivateFile } from './privateFiles.js';
import { errorCode } from './errorCode.js';

const LOCK_WAIT_MS = 5000;

/**
 * Opens (creating it and its folder when missing, owner-only: ./privateFiles.ts) a SQLite file in WAL mode; other processes
 * may have it open too (a lock they hold is waited for up to 5 s). `FULL` fsyncs
 * every commit (the log); `NORMAL` may lose the newest commits on power loss but never
 * corrupts (rebuildable read models).
 */
export function openSqliteFile(file: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  if (file !== ':memory:') {
    makePrivateDir(dirname(file));
    // SQLite gives the -wal and -shm files the mode of the database file: 0600 for all three.
    makePrivateFile(file, [`${file}-wal`, `${file}-shm`]);
  }
  const db = new Database(file);
  db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
  switchToWal(db);
  db.pragma(`synchronous = ${synchronous}`);
  return db;
}

/**
 * Switching a new file to WAL needs an exclusive lock. When two processes open the same new
 * file at once, SQLite answers one of them SQLITE_BUSY at once, without the busy timeout (waiting
 * could deadlock), so that one tries again until the other has finished the switch.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (errorCode(error) !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      sleepSync(10);
    }
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
