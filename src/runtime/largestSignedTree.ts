import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { LargestSigned, LargestSignedStore } from '../history/checkpointSigner.js';
import { makePrivateDir } from '../platform/privateFiles.js';

/** The file's name in DATA_DIR, beside log-signing.key. */
const LARGEST_SIGNED_FILE = 'log-signed-tree.json';

const Shape = Type.Object({ size: Type.Integer({ minimum: 0 }), rootHash: Type.String(), checkpoint: Type.String() });

function readRecord(file: string): LargestSigned | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const value: unknown = JSON.parse(text);
  if (!Value.Check(Shape, value)) throw new Error(`${file} is damaged: it is not the largest signed tree matchlog writes`);
  return value;
}

/**
 * The largest tree this data directory's processes signed (issue 59 F5), in DATA_DIR/log-signed-tree.json:
 * written whole (a file of its own, synced, renamed into place) before the note is answered, and
 * never replaced by a smaller one another process wrote meanwhile (read again first). Per data
 * directory: processes with their own DATA_DIR and a shared LOG_SIGNING_KEY keep one each.
 */
export function largestSignedTree(dataDir: string): LargestSignedStore {
  const file = join(dataDir, LARGEST_SIGNED_FILE);
  return {
    read: () => readRecord(file),
    write(largest) {
      const kept = readRecord(file);
      if (kept !== null && kept.size >= largest.size) return;
      makePrivateDir(dataDir);
      const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
      const fd = openSync(own, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(largest)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(own, file);
    },
  };
}
