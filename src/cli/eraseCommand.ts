import { parseArgs } from 'node:util';
import { createMatchCommands } from '../commands/matchCommands.js';
import { DomainError } from '../domain/errors.js';
import { isMatchId, MATCH_ID_RULE } from '../domain/matchId.js';
import { createWriteTokenHasher } from '../domain/writeToken.js';
import { loadConfig } from '../runtime/config.js';
import { openEngine } from '../runtime/engine.js';
import type { CliCommand } from './command.js';

const USAGE = 'matchlog erase <matchId> --reason "…"';
/** How long the command waits for the read models to drop the match (projections here or in a running server). */
const READERS_TIMEOUT_MS = 120_000;

/**
 * The operator's erasure (docs/auditing.md): any match, protected or not. Runs the projections
 * in this process too (beside a running server's: each commit expects its checkpoint, so the
 * two never apply an event twice), so the read models drop the match even with no server up.
 */
export const eraseCommand: CliCommand = {
  name: 'erase',
  summary: 'erase a match for good: its payloads leave the log and every read model; its log entries and proofs stay valid',
  usage: USAGE,
  async run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
    } catch (error) {
      io.err(`matchlog erase: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    const [matchId] = parsed.positionals;
    const { reason } = parsed.values;
    if (matchId === undefined || reason === undefined || parsed.positionals.length > 1) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    if (!isMatchId(matchId)) {
      io.err(`matchlog erase: ${MATCH_ID_RULE}\n`);
      return 2;
    }
    const config = { ...loadConfig(io.env, { hashesWriteTokens: false }), runProjections: true };
    const engine = await openEngine(config, { info: () => {}, error: (_obj, msg) => io.err(`${msg}\n`) });
    try {
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
      const erased = await matches.erase({ matchId, reason, operator: true, writeToken: null, requestId: 'matchlog-erase', clientAddressClass: 'loopback' });
      if (lagging) {
        io.err(
          `the log no longer holds match ${matchId}'s payloads, ` +
            `but the read models did not drop it within ${READERS_TIMEOUT_MS / 1000} s: see /readyz, then run this again\n`,
        );
        return 1;
      }
      await engine.readModel.dropDeletedBytes();
      io.out(
        `erased match ${matchId}: ${erased.versions.length} version(s) gone from the log and the read models; MatchErased at revision ${erased.revision}\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof DomainError) {
        io.err(`matchlog erase: ${error.message}\n`);
        return 1;
      }
      throw error;
    } finally {
      await engine.close();
    }
  },
};
