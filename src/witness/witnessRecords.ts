import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir } from '../platform/privateFiles.js';
import type { WitnessedCheckpoint } from './witnessVerdict.js';
import { errorCode } from '../platform/errorCode.js';
import { type Static, Type } from '@sinclair/typebox';
import { checkedJson } from '../platform/checkedJson.js';

/** What the witness keeps per log: the latest checkpoint it cosigned, as the log signed it. */
const WitnessRecord = Type.Object({ origin: Type.String(), size: Type.Number(), rootHash: Type.String(), checkpoint: Type.String() });
type WitnessRecord = Static<typeof WitnessRecord>;

/** One file per origin, named by the origin's SHA-256 (an origin may hold "/" and ":"). */
const recordFile = (dir: string, origin: string) => join(dir, 'logs', `${createHash('sha256').update(origin).digest('hex')}.json`);

/** The latest checkpoint cosigned for `origin`, or null when none was. */
export function readWitnessed(dir: string, origin: string): WitnessedCheckpoint | null {
  let text: string;
  try {
    text = readFileSync(recordFile(dir, origin), 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  const record = checkedJson(
    WitnessRecord,
    JSON.parse(text),
    (problem) => new Error(`the witness record ${recordFile(dir, origin)} is not one this witness wrote: ${problem}`),
  );
  if (record.origin !== origin) throw new Error(`${recordFile(dir, origin)} holds the record of ${record.origin}, not ${origin}`);
  return { size: record.size, rootHash: Buffer.from(record.rootHash, 'base64') };
}

const syncFolder = (folder: string) => {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Makes `checkpoint` the latest cosigned for its origin, durably: written and synced under a
 * name of its own, renamed over the old record, the folder synced. A crash leaves the old record
 * or the new one, whole. Callers serialize writes for one origin.
 */
export function persistWitnessed(dir: string, record: WitnessRecord): void {
  const folder = join(dir, 'logs');
  makePrivateDir(folder);
  const file = recordFile(dir, record.origin);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  syncFolder(folder);
}
