import { parseArgs } from 'node:util';
import { DomainError } from '../domain/errors.js';
import { isMatchId, MATCH_ID_RULE } from '../domain/matchId.js';
import { appendErasure, reasonDigest } from '../platform/erasureLedger.js';
import type { CliCommand } from './command.js';
import { openOperatorErasure, READERS_TIMEOUT_MS } from './operatorErasure.js';
import { serviceConfig } from './stores.js';

const USAGE = 'matchlog erase <matchId> --reason "…"   (the erasure is added to ERASURE_LEDGER, default DATA_DIR/erasures.ledger)';

/**
 * The operator's erasure (docs/auditing.md): any match, protected or not. The read models drop
 * it too (./operatorErasure.ts), and the erasure ledger gets a line (no payload, no reason text)
 * so that a restore from an older backup erases it again (matchlog restore --reapply-erasures).
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
    const config = serviceConfig(io);
    if (config === null) return 2;
    const eraser = await openOperatorErasure(config, io);
    try {
      const { erased, lagging } = await eraser.erase(matchId, reason);
      // In the ledger once the log no longer holds the payloads, whether or not the read models caught up.
      appendErasure(config.erasureLedger, { matchId, erasedAt: new Date().toISOString(), reasonSha256: reasonDigest(reason), by: 'operator' });
      if (lagging) {
        io.err(
          `the log no longer holds match ${matchId}'s payloads, ` +
            `but the read models did not drop it within ${READERS_TIMEOUT_MS / 1000} s: see /readyz, then run this again\n`,
        );
        return 1;
      }
      io.out(
        `erased match ${matchId}: ${erased.versions.length} version(s) gone from the log and the read models; ` +
          `MatchErased at revision ${erased.revision}; recorded in the erasure ledger ${config.erasureLedger}\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof DomainError) {
        io.err(`matchlog erase: ${error.message}\n`);
        return 1;
      }
      throw error;
    } finally {
      await eraser.close();
    }
  },
};
