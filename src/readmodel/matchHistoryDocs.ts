import type { MatchDiff } from '../domain/matchDiff.js';
import { collectionOf, type ReadModelReader } from './readModel.js';

/**
 * The match history's documents, written by its projection (projections/matchHistory.ts) and
 * read by the history API (src/history/historyQueries.ts): declared here, below both.
 */
export const MATCH_HISTORY = collectionOf<MatchHistoryDoc>('matchHistory');

/** One event of a match's history, with its diff computed once, when it was projected. No payload. */
export interface MatchHistoryDoc {
  id: string;
  matchId: string;
  revision: number;
  position: number;
  type: string;
  recordedAt: string;
  requestId: string | null;
  clientAddressClass: string | null;
  /** Match content events: how the upload came, its protection (on creation), and what changed. */
  via: 'POST' | 'PUT' | null;
  protection: 'protected' | 'unprotected' | null;
  diff: MatchDiff | null;
  /** Other events: their public fields. */
  details: Record<string, unknown> | null;
}

export const historyEntryId = (matchId: string, revision: number) => `${matchId}@${String(revision).padStart(10, '0')}`;

/** A page of a match's history entries, by revision. */
export async function readHistoryEntries(
  reader: Pick<ReadModelReader, 'find'>,
  matchId: string,
  query: { order: 'oldest' | 'newest'; limit: number; offset: number },
): Promise<MatchHistoryDoc[]> {
  return reader.find(MATCH_HISTORY, {
    where: { matchId },
    orderBy: [{ field: 'revision', direction: query.order === 'oldest' ? 'asc' : 'desc' }],
    limit: query.limit,
    offset: query.offset,
  });
}
