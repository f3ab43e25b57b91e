import type { ReadModelStore } from './readModel.js';
import { openSqliteReadModel } from './sqliteReadModel.js';

/**
 * Picks the read-model adapter by URL scheme (docs/operations.md: adapters are picked by URL). The MongoDB driver
 * (~20 MB resident) is loaded only when a mongodb: URL asks for it.
 */
export async function openReadModel(url: string): Promise<ReadModelStore> {
  if (url.startsWith('sqlite:')) return openSqliteReadModel(url.slice('sqlite:'.length));
  if (url.startsWith('mongodb:') || url.startsWith('mongodb+srv:')) {
    const { openMongoReadModel } = await import('./mongoReadModel.js');
    return openMongoReadModel(url);
  }
  throw new Error(`no read-model adapter for ${url.split(':')[0] ?? ''}: URLs`);
}
