import { clubSyncTarget, mayNameClub } from '../src/domain/clubSync.js';
import type { JsonText } from '../src/domain/jsonText.js';
import { type MatchSummary, type PlayerLine, summarizeMatch } from '../src/domain/matchPayload.js';

/**
 * What club sync copies out of a payload. The sync outcome is a separate event that follows
 * the match event in the same append, so projections keep this copy until the outcome comes.
 */
export interface SyncSource {
  summary: MatchSummary;
  /** Every player of the payload, each with every stat tracked in this payload (absent means 0). */
  players: PlayerLine[];
}

/** The payload's club-sync content, or null when the payload does not name a club and team. */
export function syncSourceOf(payload: JsonText): SyncSource | null {
  if (!mayNameClub(payload)) return null;
  const body: unknown = JSON.parse(payload);
  if (clubSyncTarget(body) === null) return null;
  const summary = summarizeMatch(body);
  // Apps often leave a zero out of a player's stats; a stat any player has is tracked for all.
  const tracked = [...new Set(summary.players.flatMap((player) => Object.keys(player.stats)))];
  const players = summary.players.map((player) => ({
    ...player,
    stats: Object.fromEntries(tracked.map((name) => [name, player.stats[name] ?? 0])),
  }));
  return { summary, players };
}
