import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { makePrivateDir, makePrivateFile } from '../platform/privateFiles.js';

/**
 * The key write tokens are hashed with. WRITE_TOKEN_KEY wins; on the embedded default a
 * random key is created once in DATA_DIR (mode 0600, the folder 0700; a looser existing key
 * file is narrowed to 0600) and reused. Losing it makes every
 * protected match impossible to update, so back it up with the data.
 */
export function loadWriteTokenKey(config: Pick<Config, 'writeTokenKey' | 'dataDir'>): Buffer {
  if (config.writeTokenKey !== null) return Buffer.from(config.writeTokenKey, 'base64');
  const file = join(config.dataDir, 'write-token.key');
  try {
    const text = readFileSync(file, 'utf8');
    makePrivateFile(file);
    return Buffer.from(text.trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateDir(config.dataDir);
  const key = randomBytes(32).toString('base64');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
