import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { type NoteSigner, noteSignerFromSeed, parseNoteSignerKey, signerKeyString } from '../domain/signedNote.js';
import { createFileOnce, makePrivateDir, makePrivateFile } from '../platform/privateFiles.js';

/**
 * The key that signs the transparency log's checkpoints (docs/auditing.md). LOG_SIGNING_KEY
 * wins; on the embedded default a key named after LOG_ORIGIN is created once in DATA_DIR
 * (log-signing.key, mode 0600, as write-token.key) and reused. Auditors pin its verifier key:
 * losing it means every auditor must be told a new one, so back it up with the data.
 */
export function loadLogSigner(config: Pick<Config, 'logSigningKey' | 'logOrigin' | 'dataDir'>): NoteSigner {
  if (config.logSigningKey !== null) return parseNoteSignerKey(config.logSigningKey);
  const file = join(config.dataDir, 'log-signing.key');
  try {
    const text = readFileSync(file, 'utf8');
    makePrivateFile(file);
    return parseNoteSignerKey(text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateDir(config.dataDir);
  const seed = randomBytes(32);
  // Another process may create it first: then its key is the one read back.
  createFileOnce(file, `${signerKeyString(noteSignerFromSeed(config.logOrigin, seed), seed)}\n`);
  return parseNoteSignerKey(readFileSync(file, 'utf8'));
}
