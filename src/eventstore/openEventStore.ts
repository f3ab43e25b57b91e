import type { EsdbLogger } from './esdbEventStore.js';
import type { EventStore } from './eventStore.js';
import { openSqliteEventStore } from './sqliteEventStore.js';
import { DEFAULT_DELTA_OPTIONS, type DeltaOptions } from './storedVersions.js';

export interface OpenEventStoreOptions {
  /** EventStoreDB's MaxAppendSize, from ESDB_MAX_APPEND_BYTES. */
  esdbMaxAppendBytes?: number;
  logger?: EsdbLogger;
  /** How versions are stored (DELTA_KEYFRAME_INTERVAL, DELTA_CACHE_BYTES); the defaults without. */
  deltas?: DeltaOptions;
  /** SQLite log: told each group commit's size and COMMIT time (metrics). */
  onGroupCommit?: (appends: number, commitSeconds: number) => void;
}

/**
 * Picks the event-store adapter by URL scheme (docs/operations.md: adapters are picked by URL). The EventStoreDB
 * client (gRPC, ~25 MB resident) is loaded only when an esdb: URL asks for it.
 */
export async function openEventStore(url: string, options: OpenEventStoreOptions = {}): Promise<EventStore> {
  const deltas = options.deltas ?? DEFAULT_DELTA_OPTIONS;
  if (url.startsWith('sqlite:'))
    return openSqliteEventStore(url.slice('sqlite:'.length), { deltas, ...(options.onGroupCommit ? { onGroupCommit: options.onGroupCommit } : {}) });
  if (url.startsWith('esdb:') || url.startsWith('esdb+discover:')) {
    const { openEsdbEventStore } = await import('./esdbEventStore.js');
    return openEsdbEventStore(url, { maxAppendBytes: options.esdbMaxAppendBytes, logger: options.logger, deltas });
  }
  throw new Error(`no event-store adapter for ${url.split(':')[0] ?? ''}: URLs`);
}
