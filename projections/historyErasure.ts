import { decodeMatchErased } from '../src/domain/matchEvents.js';
import { historyEntryId, MATCH_HISTORY } from '../src/readmodel/matchHistoryDocs.js';
import type { Projection } from './projection.js';

/** The diff bases of matchHistory.ts (its DIFF_BASIS collection). */
const DIFF_BASIS = 'matchHistoryBasis';

/**
 * A match's history after its erasure (docs/auditing.md): on MatchErased, each erased version's
 * entry keeps when and how it came but loses what it held (its diff), as an erased version is
 * projected from the log (src/domain/publicEvent.ts), and the diff basis goes; then the
 * history projection itself records the MatchErased. So live and rebuilt histories agree.
 */
export function withErasure(history: Projection): Projection {
  return {
    ...history,
    changedBy: history.changedBy === undefined ? undefined : [...history.changedBy, 'MatchErased'],
    canHandle: history.canHandle === undefined || history.canHandle.includes('MatchErased') ? history.canHandle : [...history.canHandle, 'MatchErased'],
    async apply(recorded, view, append) {
      const erasure = decodeMatchErased(recorded.type, recorded.data);
      if (erasure !== null) {
        const { matchId, versions } = erasure.data;
        for (const revision of versions) {
          const entry = await view.get(MATCH_HISTORY, historyEntryId(matchId, revision));
          if (entry === null) continue;
          // Field for field (and in order) the entry an erased version is projected as.
          const { via: _via, protection: _protection, diff: _diff, details: _details, ...event } = entry;
          view.put(MATCH_HISTORY, { ...event, via: null, protection: null, diff: null, details: { erased: true } });
        }
        view.delete(DIFF_BASIS, matchId);
      }
      await history.apply(recorded, view, append);
    },
  };
}
