import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../runtime/config.js';
import { LOG_SIGNING_KEY_FILE } from '../runtime/logSigningKey.js';
import { WEBHOOKS_FILE } from '../webhooks/openWebhookStore.js';
import { pipeline } from 'node:stream/promises';

/** What a backup folder holds besides its files: checked by `matchlog restore` before anything is copied. */
export interface BackupManifest {
  format: 'matchlog-backup/1';
  createdAt: string;
  /** The log's newest position in the backup, and how many events it holds. */
  log: { headPosition: number | null; events: number };
  /** Each projection's checkpoint in the backed-up read models (never beyond the log: they are copied first). */
  checkpoints: Record<string, number | null> | null;
  files: BackupFile[];
  /** Where the write-token key is: in this backup, or WRITE_TOKEN_KEY (kept in the operator's secret store). */
  writeTokenKey: 'file' | 'WRITE_TOKEN_KEY';
  /** Where the log's signing key is: in this backup, or LOG_SIGNING_KEY; absent in backups taken before it was carried. */
  logSigningKey?: 'file' | 'LOG_SIGNING_KEY';
}

export type BackupRole = 'log' | 'read models' | 'webhooks' | 'write-token key' | 'log signing key';

export interface BackupFile {
  name: string;
  role: BackupRole;
  bytes: number;
  sha256: string;
}

export const MANIFEST = 'manifest.json';
export const BACKUP_NAMES: Record<BackupRole, string> = {
  log: 'events.sqlite',
  'read models': 'readmodel.sqlite',
  webhooks: WEBHOOKS_FILE,
  'write-token key': 'write-token.key',
  'log signing key': LOG_SIGNING_KEY_FILE,
};

const sqlitePath = (url: string) => (url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null);

/**
 * Where each part of a backup lives in the running service (null: not a file here, e.g. MongoDB,
 * WRITE_TOKEN_KEY or LOG_SIGNING_KEY). The webhooks' state lives where the read models do (src/webhooks/openWebhookStore.ts).
 */
export function servicePaths(
  config: Pick<Config, 'eventStoreUrl' | 'readModelUrl' | 'dataDir' | 'writeTokenKey' | 'logSigningKey'>,
): Record<BackupRole, string | null> {
  return {
    log: sqlitePath(config.eventStoreUrl),
    'read models': sqlitePath(config.readModelUrl),
    webhooks: config.readModelUrl.startsWith('mongodb') ? null : join(config.dataDir, WEBHOOKS_FILE),
    'write-token key': config.writeTokenKey === null ? join(config.dataDir, 'write-token.key') : null,
    'log signing key': config.logSigningKey === null ? join(config.dataDir, LOG_SIGNING_KEY_FILE) : null,
  };
}

/** SHA-256 of a file, read as a stream (logs are hundreds of MB). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** A folder that does not exist or holds nothing. */
export const isEmptyFolder = (path: string) => !existsSync(path) || readdirSync(path).length === 0;
