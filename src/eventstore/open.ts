import type { EventStore } from './port.js';
import { openSqliteEventStore } from './sqlite.js';

/** Picks the event-store adapter by URL scheme (DESIGN.md: configuration). */
export async function openEventStore(url: string): Promise<EventStore> {
  if (url.startsWith('sqlite:')) return openSqliteEventStore(url.slice('sqlite:'.length));
  throw new Error(`no event-store adapter for ${new URL(url).protocol} URLs yet`);
}
