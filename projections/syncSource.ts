import type { MatchSummary, PlayerLine } from '../src/domain/matchPayload.js';

/**
 * What club sync copies out of a payload. The sync outcome is a separate event that follows
 * the match event in the same append, and the append is delivered whole, so projections take
 * the payload from the event before the outcome.
 */
export interface SyncSource {
  /**
   * Plain data only. The summary's play-by-play is left out: its function closes over the
   * parsed payload, which a source kept in memory (ProjectionMemory's syncSources) would then keep alive.
   */
  summary: Omit<MatchSummary, 'actions'>;
  /** The payload's players (at most MAX_COPIED_PLAYERS), their stats as the payload gives them. */
  players: PlayerLine[];
  /** The stats copied for each player: every stat any player of the payload has (absent means 0), in one order. */
  tracked: string[];
}
