import { loadConfig } from '../config.js';
import { openEventStore } from '../eventstore/open.js';
import type { EventStore } from '../eventstore/port.js';
import { openReadModel } from '../readmodel/open.js';
import type { ReadModelStore } from '../readmodel/port.js';

/**
 * The stores the service is configured with (same environment as `npm start`), for commands
 * that work on them directly. They may run beside a live server.
 */
export async function openStores(env: Record<string, string | undefined>): Promise<{ eventStore: EventStore; readModel: ReadModelStore; close(): Promise<void> }> {
  const config = loadConfig(env);
  const eventStore = await openEventStore(config.eventStoreUrl);
  const readModel = await openReadModel(config.readModelUrl);
  return {
    eventStore,
    readModel,
    async close() {
      await readModel.close();
      await eventStore.close();
    },
  };
}

/** One positional argument that must be a match id. */
export function matchIdArgument(args: string[], usage: string): string {
  const [id, ...rest] = args.filter((a) => !a.startsWith('-'));
  if (id === undefined || rest.length > 0) throw new Error(`usage: ${usage}`);
  return id;
}
