import type { MatchCommands } from '../commands/matchCommands.js';
import type { DashboardErasure } from '../http/dashboard/club/erasureRoutes.js';
import { appendErasure, reasonDigest } from '../platform/erasureLedger.js';
import type { ReadModelStore } from '../readmodel/readModel.js';

export interface DashboardErasureDeps {
  matches: Pick<MatchCommands, 'erase'>;
  erasureLedger: string;
  forgetErased: (matchId: string) => void;
  readModel: Pick<ReadModelStore, 'dropDeletedBytes'>;
  log: { error(fields: object, message: string): void };
}

/**
 * The operator's erasure (any match, no token), asked for by a club admin from the dashboard:
 * the MatchErased event names the club and admin who asked; the erasure ledger gets a line
 * (`by: "dashboard"`) as for the API's erasures, so a restore erases it again.
 */
export function dashboardErasure({ matches, erasureLedger, forgetErased, readModel, log }: DashboardErasureDeps): DashboardErasure {
  return {
    async erase(matchId, reason, askedBy, context) {
      await matches.erase({ matchId, reason, operator: true, askedBy, writeToken: null, ...context });
      try {
        appendErasure(erasureLedger, { matchId, erasedAt: new Date().toISOString(), reasonSha256: reasonDigest(reason), by: 'dashboard' });
      } catch (error) {
        log.error({ err: error, erasureLedger, matchId }, 'erased, but not recorded in the erasure ledger: add it by hand, or a restore may bring it back');
      }
      forgetErased(matchId);
      await readModel.dropDeletedBytes();
    },
  };
}
