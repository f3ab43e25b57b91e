import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { originConflict } from './logSettings.js';
import { type NoteSigner, noteSignerFromSeed, parseNoteSignerKey, signerKeyString } from '../domain/signedNote.js';
import { createFileOnce, makePrivateDir, makePrivateFile } from '../platform/privateFiles.js';
import { errorCode } from '../platform/errorCode.js';

/** The key file's name in DATA_DIR (and in a backup). */
export const LOG_SIGNING_KEY_FILE = 'log-signing.key';

/**
 * The key that signs the transparency log's checkpoints (docs/auditing.md). Its name is the log's
 * origin, for every process that signs (server, export, …): LOG_SIGNING_KEY wins; else
 * DATA_DIR/log-signing.key, created once (mode 0600, as write-token.key) named after
 * `config.logOrigin` and read back by every later process, whatever its PUBLIC_BASE_URL or PORT.
 * A LOG_ORIGIN other than the key's name is refused (ConfigError, one line). Auditors pin its
 * verifier key: losing it means every auditor must be told a new one; backups carry it.
 */
export function loadLogSigner(config: Pick<Config, 'logSigningKey' | 'logOrigin' | 'dataDir'> & { logOriginSet?: boolean }): NoteSigner {
  if (config.logSigningKey !== null) return parseNoteSignerKey(config.logSigningKey);
  const file = join(config.dataDir, LOG_SIGNING_KEY_FILE);
  const signer = readKeyFile(file) ?? createKeyFile(file, config);
  if (config.logOriginSet === true && signer.name !== config.logOrigin) throw originConflict(config.logOrigin, signer.name, `DATA_DIR/${LOG_SIGNING_KEY_FILE}`);
  return signer;
}

function readKeyFile(file: string): NoteSigner | null {
  try {
    const text = readFileSync(file, 'utf8');
    makePrivateFile(file);
    return parseNoteSignerKey(text);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    return null;
  }
}

function createKeyFile(file: string, config: Pick<Config, 'logOrigin' | 'dataDir'>): NoteSigner {
  makePrivateDir(config.dataDir);
  const seed = randomBytes(32);
  // Another process may create it first: then its key is the one read back.
  createFileOnce(file, `${signerKeyString(noteSignerFromSeed(config.logOrigin, seed), seed)}\n`);
  return parseNoteSignerKey(readFileSync(file, 'utf8'));
}
