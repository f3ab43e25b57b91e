import { createHash } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Refused } from './restoreChecks.js';
import { errorCode } from '../platform/errorCode.js';

const CHUNK_BYTES = 1024 * 1024;
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A file copied beside its destination, not yet in place. */
export interface StagedFile {
  temporary: string;
  target: string;
}

/**
 * Copies `source` to `<target>.restoring`, created here and now (O_EXCL|O_NOFOLLOW, 0600): a
 * name that exists, a planted link among them, is refused rather than written through. The
 * source is read without following a link, hashed as it is copied, and synced before it counts.
 * Rejects with Refused (removing what it created) when the copy's SHA-256 is not `sha256`.
 */
export function stageFile(source: string, target: string, sha256: string, name: string): StagedFile {
  const temporary = `${target}.restoring`;
  let out: number;
  try {
    out = openSync(temporary, NEW_FILE, 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') {
      throw new Refused(`${temporary} already exists (left by an earlier restore, or planted): remove it and restore again`);
    }
    throw error;
  }
  try {
    const hash = createHash('sha256');
    const input = openSync(source, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      for (let read = readSync(input, buffer); read > 0; read = readSync(input, buffer)) {
        hash.update(buffer.subarray(0, read));
        for (let written = 0; written < read; ) written += writeSync(out, buffer, written, read - written);
      }
    } finally {
      closeSync(input);
    }
    fsyncSync(out);
    if (hash.digest('hex') !== sha256) throw new Refused(`${name} does not match its checksum in the manifest: the backup is damaged`);
  } catch (error) {
    closeSync(out);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(out);
  return { temporary, target };
}

/** Removes staged copies (a failed restore leaves none); unlink never follows a link. */
export function discardStaged(staged: StagedFile[]): void {
  for (const file of staged) {
    try {
      unlinkSync(file.temporary);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
}

/** Renames each staged copy into place (a rename replaces a name, never writes through a link) and syncs its folder. */
export function putInPlace(staged: StagedFile[]): void {
  for (const file of staged) {
    renameSync(file.temporary, file.target);
    const folder = openSync(dirname(file.target), constants.O_RDONLY);
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  }
}
