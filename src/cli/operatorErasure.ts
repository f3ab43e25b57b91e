import { createMatchCommands, type EraseResult } from '../commands/matchCommands.js';
import { createWriteTokenHasher } from '../domain/writeToken.js';
import type { EventStore } from '../eventstore/eventStore.js';
import type { Config } from '../runtime/config.js';
import { openEngine } from '../runtime/engine.js';
import type { CliIo } from './command.js';

/** How long an erasure waits for the read models to drop the match (projections here or in a running server). */
export const READERS_TIMEOUT_MS = 120_000;

export interface OperatorErasure {
  eventStore: EventStore;
  /** Erases the match as the operator; `lagging` when the read models did not drop it within READERS_TIMEOUT_MS. */
  erase(matchId: string, reason: string): Promise<{ erased: EraseResult; lagging: boolean }>;
  close(): Promise<void>;
}

/**
 * The operator's erasures (matchlog erase, restore --reapply-erasures), with the projections
 * running in this process too (beside a running server's: each commit expects its checkpoint,
 * so the two never apply an event twice), so the read models drop the match with no server up.
 */
export async function openOperatorErasure(config: Config, io: CliIo): Promise<OperatorErasure> {
  const engine = await openEngine({ ...config, runProjections: true }, { info: () => {}, error: (_obj, msg) => io.err(`${msg}\n`) });
  let lagging = false;
  const matches = createMatchCommands({
    eventStore: engine.eventStore,
    // The operator needs no token; nothing is hashed.
    hashWriteToken: createWriteTokenHasher(Buffer.alloc(32)),
    waitForReaders: (position, eventTypes) => engine.waitForReaders(position, READERS_TIMEOUT_MS, eventTypes),
    onReadersLagging: () => {
      lagging = true;
    },
    checkClubSync: () => Promise.reject(new Error('erase syncs no club')),
  });
  return {
    eventStore: engine.eventStore,
    async erase(matchId, reason) {
      lagging = false;
      const erased = await matches.erase({ matchId, reason, operator: true, writeToken: null, requestId: 'matchlog-erase', clientAddressClass: 'loopback' });
      if (!lagging) await engine.readModel.dropDeletedBytes();
      return { erased, lagging };
    },
    close: () => engine.close(),
  };
}
