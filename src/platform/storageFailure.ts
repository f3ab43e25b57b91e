import { statSync } from 'node:fs';
import { errorCode } from './errorCode.js';

/** Why a store refused a write: no space left, or its files are gone or cannot be written. */
export type StorageFailure = 'full' | 'unwritable';

/** Codes of a store that ran out of space: SQLite's, the file system's, MongoDB's (by code name). */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', 'OutOfDiskSpace']);
/** Codes of a store whose files cannot be written: read-only, moved, or failing I/O (SQLite's extended codes share these prefixes). */
const UNWRITABLE = [/^SQLITE_READONLY/, /^SQLITE_IOERR/, /^SQLITE_CANTOPEN/, /^EROFS$/];

/** A store's refusal to write, by the code on the error or on one of its causes (never by message); null for anything else. */
export function storageFailureOf(error: unknown): StorageFailure | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    const [code, codeName] = [errorCode(current), errorCode(current, 'codeName')];
    if (FULL.has(String(code)) || FULL.has(String(codeName))) return 'full';
    if (code !== undefined && UNWRITABLE.some((pattern) => pattern.test(code))) return 'unwritable';
  }
  return null;
}

/** The store ran out of space (by code, on the error or a cause). */
export const isStorageFull = (error: unknown) => storageFailureOf(error) === 'full';

/**
 * A check that `file` is still the file opened: a removed (or replaced) database file keeps
 * taking writes through its open descriptor, into an inode nobody will open again. One stat.
 */
export function sameFileCheck(file: string): () => boolean {
  const opened = statSync(file);
  return () => {
    try {
      const now = statSync(file, { throwIfNoEntry: false });
      return now !== undefined && now.ino === opened.ino && now.dev === opened.dev;
    } catch {
      return false;
    }
  };
}
