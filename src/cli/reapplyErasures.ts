import { matchStreamId } from '../domain/matchId.js';
import type { ErasureLedgerEntry } from '../platform/erasureLedger.js';
import type { Config } from '../runtime/config.js';
import type { CliIo } from './command.js';
import { openOperatorErasure } from './operatorErasure.js';

/**
 * Erases again every match the ledger names that the log still holds (a restore from a backup
 * older than the erasure brought its payloads back), as the operator would with matchlog erase.
 * A match the log does not hold (uploaded after the backup) is named and left. Resolves to the
 * number of erasures that did not finish (read models that did not drop the match in time).
 */
export async function reapplyErasures(config: Config, io: CliIo, entries: ErasureLedgerEntry[]): Promise<number> {
  const latest = new Map(entries.map((entry) => [entry.matchId, entry]));
  if (latest.size === 0) {
    io.out('the erasure ledger names no erasure\n');
    return 0;
  }
  const eraser = await openOperatorErasure(config, io);
  let unfinished = 0;
  try {
    for (const entry of latest.values()) {
      const events = await eraser.eventStore.readStream(matchStreamId(entry.matchId));
      if (events.length === 0) {
        io.out(`erasure of ${entry.matchId} (${entry.erasedAt}): the restored log does not hold the match; nothing to erase\n`);
        continue;
      }
      const alreadyErased = events.some((event) => event.type === 'MatchErased');
      // Run even when already erased: the operator's erasure finishes what a crash may have left.
      const { lagging } = await eraser.erase(
        entry.matchId,
        `re-applied from the erasure ledger: erased ${entry.erasedAt} (reason sha256 ${entry.reasonSha256})`,
      );
      if (lagging) unfinished += 1;
      io.out(
        `erasure of ${entry.matchId} (${entry.erasedAt}): ${alreadyErased ? 'already erased in the backup' : 'erased again'}` +
          `${lagging ? ', but the read models did not drop it in time: run matchlog erase again' : ''}\n`,
      );
    }
  } finally {
    await eraser.close();
  }
  return unfinished;
}
