import { boxScore, sportOf } from './statVocabulary.js';

/**
 * A team's season leaders per sport stat, pure: for each of the sport's headline stats the team
 * has, its top players (by the stat's value, over 0), as indexes into the players given.
 */
const LEADER_STATS = {
  volleyball: ['K', 'SA', 'B', 'D', 'A'],
  basketball: ['PTS', 'REB', 'AST', 'STL', 'BLK'],
  football: ['G', 'A', 'SV'],
} as const;

/** Players a stat lists at most. */
const LEADERS_SHOWN = 3;

export interface StatLeaders {
  abbr: string;
  title: string;
  leaders: { player: number; value: string }[];
}

export function seasonLeaders(sport: string | null, totals: readonly Record<string, number>[]): StatLeaders[] {
  const known = sportOf(sport);
  if (known === null || totals.length === 0) return [];
  const box = boxScore(known, [...totals]);
  return LEADER_STATS[known].flatMap((id) => {
    const column = box.columns.findIndex((c) => c.id === id);
    if (column < 0) return [];
    const ranked = box.rows
      .map((row, player) => ({ player, sort: row[column]?.sort ?? null, value: row[column]?.text ?? '' }))
      .filter((entry): entry is { player: number; sort: number; value: string } => entry.sort !== null && entry.sort > 0)
      .sort((a, b) => b.sort - a.sort || a.player - b.player)
      .slice(0, LEADERS_SHOWN);
    const { abbr, title } = box.columns[column]!;
    return ranked.length === 0 ? [] : [{ abbr, title, leaders: ranked.map(({ player, value }) => ({ player, value })) }];
  });
}
