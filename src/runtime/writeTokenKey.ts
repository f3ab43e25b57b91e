import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { createFileOnce, makePrivateDir, makePrivateFile } from '../platform/privateFiles.js';
import { StartupError } from './startupFailure.js';
import { errorCode } from '../platform/errorCode.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key file's text as a key: base64 of at least 32 bytes, or a StartupError saying what to do. */
function keyFromFile(file: string, text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (BASE64.test(text.trim()) && key.length >= 32) return key;
  throw new StartupError(
    `the write-token key file ${file} is not base64 of at least 32 bytes; ` +
      'put back the key from your backup (without it no protected match can be changed), or set WRITE_TOKEN_KEY',
  );
}

function readKeyFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw error;
    const why = errorCode(error) ?? String(error);
    throw new StartupError(`the write-token key file ${file} cannot be read (${why}); make it a readable file holding the key, or set WRITE_TOKEN_KEY`, {
      cause: error,
    });
  }
}

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
    const key = keyFromFile(file, readKeyFile(file));
    makePrivateFile(file);
    return key;
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  makePrivateDir(config.dataDir);
  // Another process may create it first: then its key is the one read back.
  createFileOnce(file, `${randomBytes(32).toString('base64')}\n`);
  return keyFromFile(file, readKeyFile(file));
}
