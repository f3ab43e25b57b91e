import type { MatchStatus, TeamSummary } from './matchPayload.js';

/**
 * A team's season record from its matches, pure: won, drawn and lost (final matches whose side is
 * known), and what the sport's score counts for and against: sets in volleyball, points in
 * basketball, goals in football (the headline score, in its unit).
 */
export interface RecordMatch {
  side: 'home' | 'away' | null;
  home: Pick<TeamSummary, 'score'>;
  away: Pick<TeamSummary, 'score'>;
  scoreUnit: 'sets' | 'points' | 'goals' | null;
  status?: MatchStatus | null | undefined;
}

export interface SeasonRecord {
  played: number;
  won: number;
  drawn: number;
  lost: number;
  /** The unit most of the counted matches' scores are in (null: none had a score). */
  unit: 'sets' | 'points' | 'goals' | null;
  for: number;
  against: number;
}

export type MatchResult = 'W' | 'D' | 'L';

/** The result for the club's side of a final match with both scores, else null (live, scheduled, side unknown). */
export function resultOf(match: RecordMatch): MatchResult | null {
  if (match.side === null || match.status !== 'final') return null;
  const own = match.side === 'home' ? match.home.score : match.away.score;
  const other = match.side === 'home' ? match.away.score : match.home.score;
  if (own === null || other === null) return null;
  return own > other ? 'W' : own < other ? 'L' : 'D';
}

export function seasonRecord(matches: readonly RecordMatch[]): SeasonRecord {
  const record: SeasonRecord = { played: 0, won: 0, drawn: 0, lost: 0, unit: null, for: 0, against: 0 };
  const units = new Map<string, number>();
  for (const match of matches) {
    const result = resultOf(match);
    if (result === null) continue;
    record.played += 1;
    if (result === 'W') record.won += 1;
    else if (result === 'L') record.lost += 1;
    else record.drawn += 1;
    if (match.scoreUnit !== null) units.set(match.scoreUnit, (units.get(match.scoreUnit) ?? 0) + 1);
  }
  const unit = [...units].sort((a, b) => b[1] - a[1])[0]?.[0];
  record.unit = unit === 'sets' || unit === 'points' || unit === 'goals' ? unit : null;
  for (const match of matches) {
    if (resultOf(match) === null || match.scoreUnit !== record.unit) continue;
    const home = match.home.score ?? 0;
    const away = match.away.score ?? 0;
    record.for += match.side === 'home' ? home : away;
    record.against += match.side === 'home' ? away : home;
  }
  return record;
}
