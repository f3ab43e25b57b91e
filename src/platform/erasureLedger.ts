import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isRecord } from './isRecord.js';

/**
 * One erasure, as the erasure ledger keeps it: which match, when, and a digest of the reason.
 * Never a payload, a token or the reason's text (it may name a person).
 */
export interface ErasureLedgerEntry {
  matchId: string;
  erasedAt: string;
  reasonSha256: string;
  /** Who asked: the operator (matchlog erase), the holder of the write token (the API), or a club admin (the operator's erasure, from the dashboard). */
  by: 'operator' | 'api' | 'dashboard';
}

export const reasonDigest = (reason: string) => createHash('sha256').update(reason, 'utf8').digest('hex');

/**
 * Appends one erasure to the ledger (a JSON line; the file and its folder are created 0600/0700)
 * and syncs it before returning, so an erasure that was answered is in the ledger after a crash.
 * One `write` of a short line to a file opened O_APPEND: concurrent appenders on one machine do
 * not interleave. Call it after the erasure succeeded (an erasure refused must not be re-applied).
 */
export function appendErasure(ledger: string, entry: ErasureLedgerEntry): void {
  mkdirSync(dirname(ledger), { recursive: true, mode: 0o700 });
  const fd = openSync(ledger, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Thrown when a ledger cannot be read or holds a line matchlog did not write. */
export class ErasureLedgerError extends Error {}

const isEntry = (value: unknown): value is ErasureLedgerEntry => {
  if (!isRecord(value)) return false;
  const { matchId, erasedAt, reasonSha256, by } = value;
  return (
    typeof matchId === 'string' &&
    typeof erasedAt === 'string' &&
    typeof reasonSha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(reasonSha256) &&
    (by === 'operator' || by === 'api' || by === 'dashboard')
  );
};

/** Every entry of the ledger, oldest first; none when the file does not exist. */
export function readErasureLedger(ledger: string): ErasureLedgerEntry[] {
  if (!existsSync(ledger)) return [];
  let text: string;
  try {
    const fd = openSync(ledger, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ErasureLedgerError(`the erasure ledger ${ledger} cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = null;
      }
      if (!isEntry(value)) throw new ErasureLedgerError(`the erasure ledger ${ledger} has a damaged line ${index + 1} (not one matchlog erase wrote)`);
      return value;
    });
}

/** Appends to `ledger` the entries it does not hold yet (a restore carries an old ledger into the new DATA_DIR's). */
export function carryErasures(entries: ErasureLedgerEntry[], ledger: string): number {
  const held = new Set(readErasureLedger(ledger).map((entry) => JSON.stringify(entry)));
  const missing = entries.filter((entry) => !held.has(JSON.stringify(entry)));
  for (const entry of missing) appendErasure(ledger, entry);
  return missing.length;
}
