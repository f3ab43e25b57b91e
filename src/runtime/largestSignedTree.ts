import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { LargestSigned, LargestSignedStore } from '../history/checkpointSigner.js';
import { makePrivateDir, narrow } from '../platform/privateFiles.js';
import { errorCode } from '../platform/errorCode.js';

/** The file's name in DATA_DIR, beside log-signing.key. */
const LARGEST_SIGNED_FILE = 'log-signed-tree.json';
/** Past this size the file is rewritten with its last line alone. */
const COMPACT_BYTES = 16 * 1024;

const Shape = Type.Object({ size: Type.Integer({ minimum: 0 }), rootHash: Type.String(), checkpoint: Type.String() });

/** The file's text, or null when there is none. */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** The largest of the file's whole lines (a line cut short by a crash is skipped). */
function largestIn(text: string | null): LargestSigned | null {
  let largest: LargestSigned | null = null;
  for (const line of (text ?? '').split('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (Value.Check(Shape, value) && (largest === null || value.size > largest.size)) largest = value;
  }
  return largest;
}

/** Replaces the file with one line: written under a name of its own, then renamed into place. */
function rewrite(file: string, line: string) {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  const fd = openSync(own, 'wx', 0o600);
  try {
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
  renameSync(own, file);
}

/**
 * The largest tree this data directory's processes signed (issue 59 F5), in
 * DATA_DIR/log-signed-tree.json, one JSON line per tree larger than the last, appended before the
 * note is answered (an append costs microseconds; a rename over the file ~2 ms of the event loop
 * on ext4, so the file is rewritten only past COMPACT_BYTES). The largest line counts, so another
 * process's smaller one never lowers it. Not synced: it guards against a tree emptied or rolled
 * back by an operator or a lagging worker, not against power loss, after which the tree
 * (committed before it is signed) is whole anyway. Per data directory: processes with their own
 * DATA_DIR and a shared LOG_SIGNING_KEY keep one each.
 */
export function largestSignedTree(dataDir: string): LargestSignedStore {
  const file = join(dataDir, LARGEST_SIGNED_FILE);
  // Written 0600; one left readable by others (copied in, restored by hand) is narrowed at start, as the stores' files are.
  narrow(file);
  /**
   * The file as this process last left it: its inode and size, and its largest tree. While they
   * are those, no other process appended or rewrote it, and a write need not read it again (a read and parse of every line
   * cost each upload's receipt ~0.3 ms: issue 60).
   */
  let known: { at: string; largest: LargestSigned | null } | null = null;
  const where = () => {
    try {
      const stat = statSync(file);
      return { at: `${stat.ino}:${stat.size}`, bytes: stat.size };
    } catch {
      return { at: 'none', bytes: -1 };
    }
  };
  return {
    read: () => largestIn(readText(file)),
    write(largest) {
      let text: string | null = null;
      let kept: LargestSigned | null;
      const { at, bytes } = where();
      const unchanged = known !== null && known.at === at;
      if (unchanged) kept = known!.largest;
      else {
        text = readText(file);
        kept = largestIn(text);
      }
      if (kept !== null && kept.size >= largest.size) return;
      makePrivateDir(dataDir);
      const line = `${JSON.stringify(largest)}\n`;
      if (bytes > COMPACT_BYTES) rewrite(file, line);
      else if (unchanged) appendFileSync(file, line, { mode: 0o600 });
      else appendFileSync(file, text === null || text.endsWith('\n') || text === '' ? line : `\n${line}`, { mode: 0o600 });
      known = { at: where().at, largest };
    },
  };
}
