import { join } from 'node:path';
import { openSqliteWebhookStore } from './sqliteWebhookStore.js';
import type { WebhookStore } from './webhookStore.js';

/** The webhooks' file beside the embedded engine's, in DATA_DIR. */
export const WEBHOOKS_FILE = 'webhooks.sqlite';

/**
 * Where the webhooks' state lives is where the read models live (docs/decisions.md): with
 * MongoDB read models, in their database, which every API process and the worker share; else
 * in DATA_DIR/webhooks.sqlite. The MongoDB driver is loaded only when asked for.
 */
export async function openWebhookStore(config: { dataDir: string; readModelUrl: string }, writeTokenKey: Buffer): Promise<WebhookStore> {
  if (config.readModelUrl.startsWith('mongodb:') || config.readModelUrl.startsWith('mongodb+srv:')) {
    const { openMongoWebhookStore } = await import('./mongoWebhookStore.js');
    return openMongoWebhookStore(config.readModelUrl, writeTokenKey);
  }
  return openSqliteWebhookStore(join(config.dataDir, WEBHOOKS_FILE), writeTokenKey);
}
