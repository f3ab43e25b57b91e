import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from './errorCode.js';

/**
 * The store's folder and files are its owner's alone (0700, 0600): they hold write-token and
 * password hashes, sessions and the write-token key. What is created is created so; an existing
 * file that others may read (made by an older release, 0644) is narrowed to 0600 when opened.
 * An existing folder keeps its mode (it may be a volume an operator set up): with its files
 * 0600, others can see their names at most.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `file` (and its folder) owner-only when missing; narrows it, and `companions` that exist (a SQLite file's -wal, -shm), to 0600. */
export function makePrivateFile(file: string, companions: string[] = []): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, ...companions]) narrow(path);
}

/** Narrows `path` to its owner (0600 for a file of 0644) when it exists and others may read it. */
export function narrow(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
}

/**
 * Creates `file` (0600) holding `text` unless it exists, so that no process ever reads it empty
 * or half written: the text is written and synced under a name of its own, then linked into
 * place (a link fails if the name exists), and the folder synced. Two servers started at once on
 * one DATA_DIR read one key, and a crash leaves the file whole or absent. Answers false when the
 * file existed: another process made it first, and its content stands.
 */
export function createFileOnce(file: string, text: string): boolean {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  const fd = openSync(own, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, file);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(own);
  }
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
  return true;
}
