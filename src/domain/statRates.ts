/**
 * Percentages derived from counting stats, computed when read (never stored, so totals stay
 * additive and a rate is never averaged). A rate appears only when every input it needs is
 * among the stats and its denominator is above zero. Stat names vary between apps, so each
 * input accepts a few spellings, nested ("attack.kills") or flat.
 */
export interface StatRate {
  name: string;
  /** A fraction: 0.315 shows as 31.5 %. */
  value: number;
}

type Stats = Record<string, number>;

/** The first of `names` present in `stats`, or the sum of a group of names when all are present. */
function input(stats: Stats, ...alternatives: (string | string[])[]): number | null {
  for (const alternative of alternatives) {
    const names = Array.isArray(alternative) ? alternative : [alternative];
    if (names.every((name) => name in stats)) return names.reduce((sum, name) => sum + (stats[name] ?? 0), 0);
  }
  return null;
}

const KILLS = ['kills', 'attack.kills', 'attackKills', 'K'];
const ATTACK_ERRORS = ['attackErrors', 'attack.errors', 'errors', 'E'];
const ATTACKS_BLOCKED = ['attacksBlocked', 'blockedAttacks', 'attackBlocked', 'attack.blocked', 'attack.blocks'];
const ATTACKS = ['attacks', 'attackAttempts', 'attack.attempts', 'attack.total', 'totalAttacks', 'attempts', 'TA'];

const FG_MADE = ['fieldGoalsMade', 'fgMade', 'fgm', ['2ptMade', '3ptMade'], ['twoPointersMade', 'threePointersMade']];
const FG_ATTEMPTED = ['fieldGoalsAttempted', 'fgAttempted', 'fga', ['2ptAttempted', '3ptAttempted'], ['twoPointersAttempted', 'threePointersAttempted']];
const THREE_MADE = ['3ptMade', 'threePointersMade', 'threesMade', '3pm'];
const THREE_ATTEMPTED = ['3ptAttempted', 'threePointersAttempted', 'threesAttempted', '3pa'];
const FT_MADE = ['freethrowMade', 'freeThrowsMade', 'ftMade', 'ftm'];
const FT_ATTEMPTED = ['freethrowAttempted', 'freeThrowsAttempted', 'ftAttempted', 'fta'];

const RATES: { name: string; compute: (stats: Stats) => { numerator: number | null; denominator: number | null } }[] = [
  {
    // Volleyball hitting percentage: (kills − attack errors − attacks blocked) / total attempts, blocked attacks counted when kept apart.
    name: 'hitting %',
    compute: (s) => {
      const kills = input(s, ...KILLS);
      const errors = input(s, ...ATTACK_ERRORS);
      const blocked = input(s, ...ATTACKS_BLOCKED) ?? 0;
      return { numerator: kills === null || errors === null ? null : kills - errors - blocked, denominator: input(s, ...ATTACKS) };
    },
  },
  { name: 'FG %', compute: (s) => ({ numerator: input(s, ...FG_MADE), denominator: input(s, ...FG_ATTEMPTED) }) },
  { name: '3P %', compute: (s) => ({ numerator: input(s, ...THREE_MADE), denominator: input(s, ...THREE_ATTEMPTED) }) },
  { name: 'FT %', compute: (s) => ({ numerator: input(s, ...FT_MADE), denominator: input(s, ...FT_ATTEMPTED) }) },
];

export function statRates(stats: Stats): StatRate[] {
  return RATES.flatMap((rate) => {
    const { numerator, denominator } = rate.compute(stats);
    return numerator === null || denominator === null || denominator <= 0 ? [] : [{ name: rate.name, value: numerator / denominator }];
  });
}

/** A stat of a line, 0 when the line has none. Own properties only: a payload may name a stat "toString". */
export const statValue = (line: Stats, name: string): number => (Object.hasOwn(line, name) ? (line[name] ?? 0) : 0);

/** Adds `value` to the total of stat `name` in `totals`. */
export function addStat(totals: Stats, name: string, value: number): void {
  totals[name] = statValue(totals, name) + value;
}
