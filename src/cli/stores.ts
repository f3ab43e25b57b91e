import { type Config, ConfigError, deltaOptions, loadConfig } from '../runtime/config.js';
import { isMatchId, MATCH_ID_RULE } from '../domain/matchId.js';
import { matchEvents } from '../history/historyQueries.js';
import type { PublicEvent } from '../domain/publicEvent.js';
import type { CliIo } from './command.js';
import { openEventStore } from '../eventstore/openEventStore.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { openReadModel } from '../readmodel/openReadModel.js';
import type { ReadModelStore } from '../readmodel/readModel.js';

/**
 * The service's configuration from the command's environment, or null once a bad variable has
 * been named on stderr (the command then exits 2).
 */
export function serviceConfig(io: CliIo, options: { hashesWriteTokens?: boolean } = { hashesWriteTokens: false }): Config | null {
  try {
    return loadConfig(io.env, options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`${error.message}\n`);
    return null;
  }
}

/**
 * The stores the service is configured with (same environment as `npm start`), for commands
 * that work on them directly. They may run beside a live server.
 */
export async function openStores(
  env: Record<string, string | undefined>,
): Promise<{ eventStore: EventStore; readModel: ReadModelStore; close(): Promise<void> }> {
  const config = loadConfig(env, { hashesWriteTokens: false });
  const eventStore = await openEventStore(config.eventStoreUrl, { esdbMaxAppendBytes: config.esdbMaxAppendBytes, deltas: deltaOptions(config) });
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

/**
 * Hands every event of the match named by the one argument to `visit`, oldest first.
 * Resolves to the exit code: 1 (with a message) when there is no such match.
 */
export async function eachMatchEvent(
  args: string[],
  io: CliIo,
  usage: string,
  visit: (event: PublicEvent, index: number, matchId: string) => void,
): Promise<number> {
  const [matchId, ...rest] = args.filter((a) => !a.startsWith('-'));
  if (matchId === undefined || rest.length > 0) throw new Error(`usage: ${usage}`);
  if (!isMatchId(matchId)) throw new Error(MATCH_ID_RULE);
  const stores = await openStores(io.env);
  try {
    let count = 0;
    for await (const event of matchEvents(stores.eventStore, matchId)) visit(event, count++, matchId);
    if (count > 0) return 0;
    io.err(`no match with id "${matchId}"\n`);
    return 1;
  } finally {
    await stores.close();
  }
}
