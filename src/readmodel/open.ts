import type { ReadModelStore } from './port.js';
import { openSqliteReadModel } from './sqlite.js';

/** Picks the read-model adapter by URL scheme (DESIGN.md: configuration). */
export async function openReadModel(url: string): Promise<ReadModelStore> {
  if (url.startsWith('sqlite:')) return openSqliteReadModel(url.slice('sqlite:'.length));
  throw new Error(`no read-model adapter for ${new URL(url).protocol} URLs yet`);
}
