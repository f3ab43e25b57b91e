import { clip } from './clippedText.js';
import { isRecord } from '../platform/isRecord.js';

/**
 * The words of each sport: box-score columns in their standard order with standard
 * abbreviations, the payload keys apps use for them, derived percentages, and readable words
 * for play-by-play (volleyball scouting codes # + ! - / =). Pure; used by the public page and
 * meant for the club dashboard too.
 */

type Stats = Record<string, number>;

export type Sport = 'volleyball' | 'basketball' | 'football';

/** How a column's value reads. */
export type StatFormat = 'count' | 'minutes' | 'madeAttempted' | 'percent' | 'hitting' | 'decimal';

/** One counted stat: the keys apps send it under, first match wins; arrays are sums of parts. */
interface CountedStat {
  id: string;
  abbr: string;
  title: string;
  keys: (string | string[])[];
  format?: 'count' | 'minutes';
  /** False where a team total means nothing (a football side's minutes): the totals row leaves it blank. */
  totalled?: false;
}

interface MadeAttempted {
  id: string;
  abbr: string;
  title: string;
  made: string;
  attempted: string;
}

interface Rate {
  id: string;
  abbr: string;
  title: string;
  /** Computed from the line's counted stats; null when an input is missing or the denominator is 0. */
  compute: (line: Map<string, number>) => number | null;
  format: 'percent' | 'hitting';
  /** Payload keys of the same rate, hidden because the rate is derived from its inputs. */
  keys: string[];
}

type ColumnSpec = { kind: 'stat'; id: string } | { kind: 'madeAttempted'; spec: MadeAttempted } | { kind: 'rate'; spec: Rate };

interface SportVocabulary {
  stats: CountedStat[];
  columns: ColumnSpec[];
}

const ratio = (line: Map<string, number>, made: string, attempted: string) => {
  const a = line.get(attempted);
  // Attempts tracked but no makes listed: the app left a zero out.
  return a === undefined || a <= 0 ? null : (line.get(made) ?? 0) / a;
};

const VOLLEYBALL: SportVocabulary = {
  stats: [
    { id: 'K', abbr: 'K', title: 'Kills', keys: ['kills', 'attack.kills', 'attackKills', 'attack.points', 'K'] },
    { id: 'E', abbr: 'E', title: 'Attack errors', keys: ['attackErrors', 'attack.errors', 'E'] },
    // DataVolley and VolleyStation count blocked attacks apart from attack errors; NCAA's E includes them.
    { id: 'BK', abbr: 'Blkd', title: 'Attacks blocked', keys: ['attacksBlocked', 'blockedAttacks', 'attackBlocked', 'attack.blocked'] },
    { id: 'TA', abbr: 'TA', title: 'Total attacks', keys: ['attacks', 'attackAttempts', 'attack.attempts', 'attack.total', 'totalAttacks', 'TA'] },
    { id: 'A', abbr: 'A', title: 'Assists', keys: ['assists', 'setAssists', 'set.assists', 'A'] },
    { id: 'SA', abbr: 'SA', title: 'Service aces', keys: ['aces', 'serviceAces', 'serveAces', 'serve.aces', 'SA'] },
    { id: 'SE', abbr: 'SE', title: 'Service errors', keys: ['serviceErrors', 'serveErrors', 'serve.errors', 'SE'] },
    { id: 'RE', abbr: 'RE', title: 'Reception errors', keys: ['receptionErrors', 'receiveErrors', 'reception.errors', 'passErrors', 'RE'] },
    { id: 'D', abbr: 'D', title: 'Digs', keys: ['digs', 'dig.digs', 'D'] },
    { id: 'BS', abbr: 'BS', title: 'Block solos', keys: ['blockSolos', 'blocksSolo', 'soloBlocks', 'block.solo', 'BS'] },
    { id: 'BA', abbr: 'BA', title: 'Block assists', keys: ['blockAssists', 'block.assists', 'BA'] },
    { id: 'B', abbr: 'B', title: 'Blocks', keys: ['blocks', 'block.points', 'B'] },
    { id: 'BE', abbr: 'BE', title: 'Blocking errors', keys: ['blockErrors', 'block.errors', 'BE'] },
    { id: 'PTS', abbr: 'PTS', title: 'Points', keys: ['points', 'PTS'] },
  ],
  columns: [],
};
VOLLEYBALL.columns = [
  ...['K', 'E', 'BK', 'TA'].map((id) => ({ kind: 'stat' as const, id })),
  {
    kind: 'rate',
    spec: {
      id: 'HIT',
      abbr: 'Hit %',
      title: 'Hitting percentage: (kills − attack errors − attacks blocked) / total attacks',
      format: 'hitting',
      keys: ['hittingPercentage', 'hitPct', 'attack.efficiency'],
      // As NCAA and DataVolley count it: a blocked attack is a lost attack, whether the app files it as an error or apart.
      compute: (line) => {
        const attempts = line.get('TA');
        return attempts === undefined || attempts <= 0 ? null : ((line.get('K') ?? 0) - (line.get('E') ?? 0) - (line.get('BK') ?? 0)) / attempts;
      },
    },
  },
  ...['A', 'SA', 'SE', 'RE', 'D', 'BS', 'BA', 'B', 'BE', 'PTS'].map((id) => ({ kind: 'stat' as const, id })),
];

const BASKETBALL: SportVocabulary = {
  stats: [
    { id: 'MIN', abbr: 'MIN', title: 'Minutes played', keys: ['minutes', 'minutesPlayed', 'min', 'MIN'], format: 'minutes' },
    { id: 'PTS', abbr: 'PTS', title: 'Points', keys: ['points', 'pts', 'PTS'] },
    {
      id: 'FGM',
      abbr: 'FGM',
      title: 'Field goals made',
      keys: ['fieldGoalsMade', 'fgMade', 'fgm', 'FGM', ['twoPointersMade', 'threePointersMade'], ['2ptMade', '3ptMade'], ['2ptMade'], ['3ptMade']],
    },
    {
      id: 'FGA',
      abbr: 'FGA',
      title: 'Field goals attempted',
      keys: [
        'fieldGoalsAttempted',
        'fgAttempted',
        'fga',
        'FGA',
        ['twoPointersAttempted', 'threePointersAttempted'],
        ['2ptAttempted', '3ptAttempted'],
        ['2ptAttempted'],
        ['3ptAttempted'],
      ],
    },
    { id: '3PM', abbr: '3PM', title: 'Three-pointers made', keys: ['threePointersMade', '3ptMade', 'threesMade', '3pm', '3PM'] },
    { id: '3PA', abbr: '3PA', title: 'Three-pointers attempted', keys: ['threePointersAttempted', '3ptAttempted', 'threesAttempted', '3pa', '3PA'] },
    { id: 'FTM', abbr: 'FTM', title: 'Free throws made', keys: ['freeThrowsMade', 'freethrowMade', 'ftMade', 'ftm', 'FTM'] },
    { id: 'FTA', abbr: 'FTA', title: 'Free throws attempted', keys: ['freeThrowsAttempted', 'freethrowAttempted', 'ftAttempted', 'fta', 'FTA'] },
    { id: 'OREB', abbr: 'OREB', title: 'Offensive rebounds', keys: ['reboundsOffensive', 'offensiveRebounds', 'oreb', 'OREB'] },
    { id: 'DREB', abbr: 'DREB', title: 'Defensive rebounds', keys: ['reboundsDefensive', 'defensiveRebounds', 'dreb', 'DREB'] },
    {
      id: 'REB',
      abbr: 'REB',
      title: 'Rebounds',
      keys: ['reboundsTotal', 'rebounds', 'totalRebounds', 'reb', 'REB', ['reboundsOffensive', 'reboundsDefensive']],
    },
    { id: 'AST', abbr: 'AST', title: 'Assists', keys: ['assists', 'ast', 'AST'] },
    { id: 'STL', abbr: 'STL', title: 'Steals', keys: ['steals', 'stl', 'STL'] },
    { id: 'BLK', abbr: 'BLK', title: 'Blocks', keys: ['blocks', 'blk', 'BLK'] },
    { id: 'TO', abbr: 'TO', title: 'Turnovers', keys: ['turnovers', 'tov', 'to', 'TO'] },
    { id: 'PF', abbr: 'PF', title: 'Personal fouls', keys: ['foulsPersonal', 'personalFouls', 'fouls', 'pf', 'PF'] },
    { id: 'PM', abbr: '+/−', title: 'Plus/minus: points scored minus points allowed while on court', keys: ['plusMinusPoints', 'plusMinus', '+/-'] },
  ],
  columns: [],
};
const pct = (id: string, abbr: string, title: string, made: string, attempted: string, keys: string[]): ColumnSpec => ({
  kind: 'rate',
  spec: { id, abbr, title, format: 'percent', keys, compute: (line) => ratio(line, made, attempted) },
});
BASKETBALL.columns = [
  { kind: 'stat', id: 'MIN' },
  { kind: 'stat', id: 'PTS' },
  { kind: 'madeAttempted', spec: { id: 'FG', abbr: 'FGM-A', title: 'Field goals made–attempted', made: 'FGM', attempted: 'FGA' } },
  pct('FGP', 'FG %', 'Field goal percentage', 'FGM', 'FGA', ['fieldGoalsPercentage', 'fgPct']),
  { kind: 'madeAttempted', spec: { id: '3P', abbr: '3PM-A', title: 'Three-pointers made–attempted', made: '3PM', attempted: '3PA' } },
  pct('3PP', '3P %', 'Three-point percentage', '3PM', '3PA', ['threePointersPercentage', '3ptPct']),
  { kind: 'madeAttempted', spec: { id: 'FT', abbr: 'FTM-A', title: 'Free throws made–attempted', made: 'FTM', attempted: 'FTA' } },
  pct('FTP', 'FT %', 'Free throw percentage', 'FTM', 'FTA', ['freeThrowsPercentage', 'ftPct']),
  ...['OREB', 'DREB', 'REB', 'AST', 'STL', 'BLK', 'TO', 'PF', 'PM'].map((id) => ({ kind: 'stat' as const, id })),
];

const FOOTBALL: SportVocabulary = {
  stats: [
    // Whole minutes, as football reports them ("90", not "90:00"); no team total.
    { id: 'MIN', abbr: 'MIN', title: 'Minutes played', keys: ['minutes', 'minutesPlayed', 'min', 'MIN'], totalled: false },
    { id: 'G', abbr: 'G', title: 'Goals', keys: ['goals', 'G'] },
    { id: 'A', abbr: 'A', title: 'Assists', keys: ['assists', 'A'] },
    { id: 'SH', abbr: 'SH', title: 'Shots', keys: ['shots', 'shotsTotal', 'totalShots', 'SH'] },
    { id: 'SOT', abbr: 'SOT', title: 'Shots on target', keys: ['shotsOnTarget', 'onTarget', 'shotsOnGoal', 'SOT'] },
    { id: 'PAS', abbr: 'PAS', title: 'Passes', keys: ['passes', 'passesTotal', 'totalPasses'] },
    { id: 'PC', abbr: 'PC', title: 'Passes completed', keys: ['passesCompleted', 'accuratePasses', 'passesAccurate'] },
    { id: 'KP', abbr: 'KP', title: 'Key passes', keys: ['keyPasses', 'KP'] },
    { id: 'TK', abbr: 'TK', title: 'Tackles', keys: ['tackles', 'TK'] },
    { id: 'INT', abbr: 'INT', title: 'Interceptions', keys: ['interceptions', 'INT'] },
    { id: 'SV', abbr: 'SV', title: 'Saves', keys: ['saves', 'SV'] },
    { id: 'FC', abbr: 'FC', title: 'Fouls committed', keys: ['foulsCommitted', 'fouls', 'FC'] },
    { id: 'FS', abbr: 'FS', title: 'Fouls suffered', keys: ['foulsSuffered', 'foulsDrawn', 'FS'] },
    { id: 'OFF', abbr: 'OFF', title: 'Offsides', keys: ['offsides', 'OFF'] },
    { id: 'YC', abbr: 'YC', title: 'Yellow cards', keys: ['yellowCards', 'yellow', 'YC'] },
    { id: 'RC', abbr: 'RC', title: 'Red cards', keys: ['redCards', 'red', 'RC'] },
  ],
  columns: [],
};
FOOTBALL.columns = [
  ...['MIN', 'G', 'A', 'SH', 'SOT', 'PAS', 'PC'].map((id) => ({ kind: 'stat' as const, id })),
  pct('PCP', 'Pass %', 'Pass completion', 'PC', 'PAS', ['passAccuracy', 'passPct']),
  ...['KP', 'TK', 'INT', 'SV', 'FC', 'FS', 'OFF', 'YC', 'RC'].map((id) => ({ kind: 'stat' as const, id })),
];

const VOCABULARIES: Record<Sport, SportVocabulary> = { volleyball: VOLLEYBALL, basketball: BASKETBALL, football: FOOTBALL };

/** sportOf's last answer, and the name it was for. */
let lastSport: { name: string | null | undefined; sport: Sport | null } = { name: undefined, sport: null };

/** The sport a payload names, in the words apps use; null for anything else. */
export function sportOf(name: string | null): Sport | null {
  // Asked once per action of a play-by-play, always with the same name: the last answer is kept.
  if (name === lastSport.name) return lastSport.sport;
  const n = name?.toLowerCase().trim() ?? '';
  const sport = /volley/.test(n)
    ? 'volleyball'
    : /basket/.test(n)
      ? 'basketball'
      : /^(football|soccer|futsal|association football)$/.test(n)
        ? 'football'
        : null;
  lastSport = { name, sport };
  return sport;
}

interface BoxColumn {
  id: string;
  abbr: string;
  /** Full name, for `<abbr title>` and legends. */
  title: string;
  format: StatFormat;
}

export interface BoxCell {
  /** What the cell shows; '' when the player has no value (never a made-up 0). */
  text: string;
  /** What the column sorts by; null sorts last. */
  sort: number | null;
}

export interface BoxScore {
  columns: BoxColumn[];
  /** One row per input line, in the order given (only the first `rows` lines when that option is given). */
  rows: BoxCell[][];
  totals: BoxCell[];
  /** Unknown stat names left out beyond UNKNOWN_STAT_COLUMNS: a page says "+k more stats" and links the JSON. */
  moreStats: number;
}

/** Per vocabulary: each payload key it knows, with the indexes of the stats whose alternatives name it. */
const statsByKey = new WeakMap<SportVocabulary, Map<string, number[]>>();
function keyIndex(vocab: SportVocabulary): Map<string, number[]> {
  let index = statsByKey.get(vocab);
  if (index === undefined) {
    index = new Map();
    vocab.stats.forEach((stat, at) => {
      for (const key of stat.keys.flat()) {
        const ats = index!.get(key) ?? [];
        if (!ats.includes(at)) ats.push(at);
        index!.set(key, ats);
      }
    });
    statsByKey.set(vocab, index);
  }
  return index;
}

/**
 * Counted stats of a line under the sport's ids (first alternative whose parts are all there
 * wins); every payload key of the vocabulary that the line has is consumed, even where the line
 * used another spelling; each other name is counted in `unknown` (how many lines have it). One
 * pass over the line's keys (a line of two stats costs two lookups, not the vocabulary's sixty),
 * then only the stats it named are tried. Without a vocabulary (an unknown sport) every name is
 * unknown. It runs once per player.
 */
function countedLine(vocab: SportVocabulary | null, stats: Stats, consumed: Set<string>, unknown: Map<string, number>): Map<string, number> {
  const index = vocab === null ? null : keyIndex(vocab);
  const named = new Set<number>();
  for (const key in stats) {
    const ats = index?.get(key);
    if (ats === undefined) unknown.set(key, (unknown.get(key) ?? 0) + 1);
    else {
      consumed.add(key);
      for (const at of ats) named.add(at);
    }
  }
  const line = new Map<string, number>();
  if (vocab === null) return line;
  // In the vocabulary's order, as the line's columns and totals read.
  for (const at of [...named].sort((a, b) => a - b)) {
    const stat = vocab.stats[at]!;
    for (const alternative of stat.keys) {
      if (typeof alternative === 'string') {
        if (!Object.hasOwn(stats, alternative)) continue;
        line.set(stat.id, stats[alternative] ?? 0);
        break;
      }
      if (alternative.every((key) => Object.hasOwn(stats, key))) {
        line.set(
          stat.id,
          alternative.reduce((sum, key) => sum + (stats[key] ?? 0), 0),
        );
        break;
      }
    }
  }
  return line;
}

const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function formatStat(value: number | null, format: StatFormat): string {
  if (value === null) return '';
  switch (format) {
    case 'minutes': {
      const seconds = Math.round(value * 60);
      return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    }
    case 'percent':
      return `${(value * 100).toFixed(1)}`;
    case 'hitting':
      return (value < 0 ? '−' : '') + Math.abs(value).toFixed(3).replace(/^0/, '');
    default:
      return round(value);
  }
}

/** "attackErrors" → "Attack errors", "attack.kills" → "Attack kills". */
function statLabel(key: string): string {
  const words = key
    .replace(/[._]/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function cellsFor(vocab: SportVocabulary, columns: ColumnSpec[], line: Map<string, number>): BoxCell[] {
  const statFormat = (id: string) => vocab.stats.find((s) => s.id === id)?.format ?? 'count';
  return columns.map((column) => {
    if (column.kind === 'stat') {
      const v = line.get(column.id) ?? null;
      return { text: formatStat(v, statFormat(column.id)), sort: v };
    }
    if (column.kind === 'madeAttempted') {
      const attempted = line.get(column.spec.attempted);
      if (attempted === undefined) return { text: '', sort: null };
      const made = line.get(column.spec.made) ?? 0;
      return { text: `${round(made)}-${round(attempted)}`, sort: made };
    }
    const v = column.spec.compute(line);
    return { text: formatStat(v, column.spec.format), sort: v };
  });
}

/**
 * At most this many columns for stats the sport's vocabulary does not know (all of them for an
 * unknown sport): NBA's full feed read as an unknown sport has 20, so realistic payloads keep
 * every column; a payload with thousands of made-up names costs 24 columns, not thousands.
 */
export const UNKNOWN_STAT_COLUMNS = 24;
/** Characters of an unknown stat's name shown in a column head (its abbreviation) and its title. */
const STAT_ABBR_SHOWN = 32;
const STAT_TITLE_SHOWN = 80;

/**
 * The unknown stat names shown, given how many of the `lines` have each (in first-seen order):
 * all of them when there are at most `max`; else the `max` that most lines have (ties: first
 * seen first), still in first-seen order. A histogram of counts finds the cut, no sort of the names.
 */
function shownUnknown(counts: Map<string, number>, lines: number, max: number, order: StatKeyOrder | undefined): { shown: string[]; hidden: number } {
  if (counts.size <= max) return { shown: inOrder([...counts.keys()], order), hidden: 0 };
  const perCount = new Array<number>(lines + 1).fill(0);
  for (const count of counts.values()) perCount[count] = (perCount[count] ?? 0) + 1;
  // The smallest count still shown, and how many names of exactly that count fit.
  let cut = lines;
  let above = 0;
  while (cut > 0 && above + (perCount[cut] ?? 0) < max) above += perCount[cut--] ?? 0;
  let atCut = max - above;
  const shown: string[] = [];
  for (const [key, count] of counts) {
    if (count > cut) shown.push(key);
    else if (count === cut && atCut > 0) {
      shown.push(key);
      atCut -= 1;
    }
  }
  return { shown: inOrder(shown, order), hidden: counts.size - shown.length };
}

/** Names in the order `order` ranks them (first-seen order where it has no rank); at most UNKNOWN_STAT_COLUMNS of them. */
function inOrder(keys: string[], order: StatKeyOrder | undefined): string[] {
  if (order === undefined) return keys;
  const ranks = order(keys);
  const rank = (key: string) => ranks.get(key) ?? Number.MAX_SAFE_INTEGER;
  return keys
    .map((key, i) => ({ key, i }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.i - b.i)
    .map(({ key }) => key);
}

/** Ranks of the stat names asked, by first appearance across some lines: lower first. */
export type StatKeyOrder = (names: readonly string[]) => ReadonlyMap<string, number>;

/**
 * Each stat name's rank by first appearance across all the lines given (both teams of a match),
 * so that every team's box score lists its unknown stats in one order. Only the names asked are
 * ranked (a table's shown columns, at most UNKNOWN_STAT_COLUMNS): the lines are read from the
 * first until each is found, each line looked up by name and enumerated only when it holds one,
 * instead of a map of every name of every line (90,000 for 300 players × 300 made-up stats).
 */
export function statKeyOrder(lines: readonly Stats[]): StatKeyOrder {
  return (names) => {
    const ranks = new Map<string, number>();
    const sought = new Set(names);
    for (const stats of lines) {
      if (sought.size === 0) break;
      let holds = false;
      for (const name of sought) {
        if (Object.hasOwn(stats, name)) {
          holds = true;
          break;
        }
      }
      if (holds) for (const key in stats) if (sought.delete(key)) ranks.set(key, ranks.size);
    }
    return ranks;
  };
}

/**
 * The box score of some players (one team's, say): the sport's known columns that any of them
 * has, in standard order, then at most UNKNOWN_STAT_COLUMNS unknown stats by their payload
 * names; a totals row summing the counted stats of every line, rates derived from the totals
 * (never averaged). Without a known sport every stat is an unknown one. Work is linear in the
 * keys of the lines plus (rows made) × (columns shown); `rows` limits the rows made, not the totals.
 */
export function boxScore(sport: string | null, lines: Stats[], options: { rows?: number; order?: StatKeyOrder } = {}): BoxScore {
  const vocab = VOCABULARIES[sportOf(sport) ?? 'volleyball'];
  const known = sportOf(sport) !== null;
  const consumed = new Set<string>();
  const unknownCounts = new Map<string, number>();
  const counted = lines.map((stats) => countedLine(known ? vocab : null, stats, consumed, unknownCounts));
  for (const column of vocab.columns) if (column.kind === 'rate') for (const key of column.spec.keys) consumed.add(key);
  // Names a rate reads are not columns of their own.
  for (const key of consumed) unknownCounts.delete(key);
  const countedTotals = sumLines(counted);
  // A stat some line has is in the totals.
  const has = (id: string) => countedTotals.has(id);
  const shownSpecs = known
    ? vocab.columns.filter((c) => (c.kind === 'stat' ? has(c.id) : c.kind === 'madeAttempted' ? has(c.spec.attempted) : c.spec.compute(countedTotals) !== null))
    : [];
  const { shown: unknown, hidden } = shownUnknown(unknownCounts, lines.length, UNKNOWN_STAT_COLUMNS, options.order);
  const columns: BoxColumn[] = [
    ...shownSpecs.map((c) =>
      c.kind === 'stat'
        ? (({ id, abbr, title, format }) => ({ id, abbr, title, format: format ?? 'count' }))(vocab.stats.find((s) => s.id === c.id)!)
        : c.kind === 'madeAttempted'
          ? { id: c.spec.id, abbr: c.spec.abbr, title: c.spec.title, format: 'madeAttempted' as const }
          : { id: c.spec.id, abbr: c.spec.abbr, title: c.spec.title, format: c.spec.format },
    ),
    ...unknown.map((key) => ({
      id: `x:${key}`,
      abbr: clip(statLabel(key.slice(0, STAT_ABBR_SHOWN * 2)), STAT_ABBR_SHOWN),
      title: clip(key, STAT_TITLE_SHOWN),
      format: 'count' as const,
    })),
  ];
  // Own values only: a line without a stat named "toString" must not show Object.prototype's.
  const own = (stats: Stats, key: string) => (Object.hasOwn(stats, key) ? stats[key] : undefined);
  const unknownCells = (stats: Stats): BoxCell[] =>
    unknown.map((key) => ({ text: formatStat(own(stats, key) ?? null, 'decimal'), sort: own(stats, key) ?? null }));
  const made = Math.min(lines.length, options.rows ?? lines.length);
  const rows: BoxCell[][] = [];
  for (let i = 0; i < made; i += 1) rows.push([...cellsFor(vocab, shownSpecs, counted[i] ?? new Map()), ...unknownCells(lines[i] ?? {})]);
  const totalUnknown: Stats = {};
  for (const key of unknown) {
    let sum: number | undefined;
    for (const stats of lines) {
      const value = own(stats, key);
      if (value !== undefined) sum = (sum ?? 0) + value;
    }
    if (sum !== undefined) totalUnknown[key] = sum;
  }
  const totals = cellsFor(vocab, shownSpecs, countedTotals).map((c, i) => {
    const spec = shownSpecs[i];
    return spec?.kind === 'stat' && vocab.stats.find((s) => s.id === spec.id)?.totalled === false ? { text: '', sort: null } : c;
  });
  return { columns, rows, totals: [...totals, ...unknownCells(totalUnknown)], moreStats: hidden };
}

/** Adds lines stat by stat; a stat no line has stays absent. */
function sumLines(lines: Map<string, number>[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const line of lines) for (const [id, value] of line) total.set(id, (total.get(id) ?? 0) + value);
  return total;
}

/** Volleyball scouting evaluation codes (DataVolley / VolleyStation), per skill. */
const VOLLEYBALL_CODES: Record<string, Record<string, string>> = {
  serve: { '#': 'ace', '+': 'good', '!': 'OK', '-': 'easy to pass', '/': 'passed straight back over', '=': 'error' },
  reception: { '#': 'perfect pass', '+': 'good pass', '!': 'OK pass', '-': 'poor pass', '/': 'overpass', '=': 'error (aced)' },
  attack: { '#': 'kill', '+': 'kept in play', '!': 'covered', '-': 'easily dug', '/': 'blocked', '=': 'error' },
  block: { '#': 'stuff block', '+': 'good touch', '!': 'touch, covered', '-': 'poor touch', '/': 'net fault', '=': 'error' },
  dig: { '#': 'perfect', '+': 'good', '!': 'OK', '-': 'poor', '/': 'over the net', '=': 'error' },
  set: { '#': 'perfect', '+': 'good', '!': 'OK', '-': 'poor', '/': 'over the net', '=': 'error' },
  freeball: { '#': 'perfect', '+': 'good', '!': 'OK', '-': 'poor', '/': 'over the net', '=': 'error' },
};
const GENERIC_CODES: Record<string, string> = { '#': 'perfect', '+': 'positive', '!': 'OK', '-': 'poor', '/': 'overpass', '=': 'error' };
const SKILL_NAMES: Record<string, string> = {
  s: 'serve',
  r: 'reception',
  receive: 'reception',
  pass: 'reception',
  a: 'attack',
  spike: 'attack',
  b: 'block',
  d: 'dig',
  e: 'set',
  f: 'freeball',
  'free ball': 'freeball',
};

const BASKETBALL_TYPES: Record<string, string> = {
  '2pt': '2-pt shot',
  '3pt': '3-pt shot',
  freethrow: 'Free throw',
  'free throw': 'Free throw',
  jumpball: 'Jump ball',
  turnover: 'Turnover',
  rebound: 'Rebound',
  steal: 'Steal',
  block: 'Block',
  foul: 'Foul',
  assist: 'Assist',
  substitution: 'Substitution',
  timeout: 'Timeout',
  period: 'Period',
  violation: 'Violation',
};

type Obj = Record<string, unknown>;
const word = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 60) : null);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const named = (value: unknown): string | null => word(value) ?? (isRecord(value) ? word(value.name) : null);
const inner = (entry: Obj, field: string): Obj => {
  const value = entry[field];
  return isRecord(value) ? value : {};
};

/** What a football event means for the scoreline and the sheet: goals, own goals and cards; null for the rest. */
export type FootballEvent = 'goal' | 'ownGoal' | 'ownGoalFor' | 'yellowCard' | 'secondYellow' | 'redCard';

const CARD_WORDS: [RegExp, FootballEvent][] = [
  // "Second yellow", "yellow-red card", German "Gelb-Rot": a sending-off after two bookings.
  [/second[ _-]?yellow|^(yellow[ _/-]?red|gelb[ _/-]?rot)([ _-]?card|e karte)?$/i, 'secondYellow'],
  [/^(red|red[ _-]?card|redcard|sending[ _-]?off|rot|rote karte)$/i, 'redCard'],
  [/^(yellow|yellow[ _-]?card|yellowcard|booking|caution|gelb|gelbe karte)$/i, 'yellowCard'],
];

/**
 * A football entry's event: a shot whose outcome is "Goal" (StatsBomb's `shot.outcome.name`, or
 * `result`), a goal, StatsBomb's "Own Goal Against" (the player who put it in his own net) and
 * "Own Goal For" (the same goal, filed for the side it counts for), or a card (its own type, or
 * StatsBomb's `bad_behaviour.card` / `foul_committed.card`). A type that names a card counts
 * without a `card` field (`type: "second yellow"`, `"red"`, `"booking"`).
 */
export function footballEvent(entry: Obj): FootballEvent | null {
  const type = (named(entry.type) ?? named(entry.actionType) ?? named(entry.event) ?? '').toLowerCase();
  const result = (named(inner(entry, 'shot').outcome) ?? word(entry.result) ?? word(entry.outcome) ?? '').toLowerCase();
  if (type === 'own goal against') return 'ownGoal';
  if (type === 'own goal for') return 'ownGoalFor';
  if (type === 'own goal' || type === 'owngoal' || type === 'own_goal') return 'ownGoal';
  if (type === 'goal' || ((type === 'shot' || type === 'penalty') && result === 'goal')) return 'goal';
  const card = named(inner(entry, 'bad_behaviour').card) ?? named(inner(entry, 'foul_committed').card) ?? named(entry.card) ?? (type === '' ? null : type);
  if (card === null) return null;
  return CARD_WORDS.find(([pattern]) => pattern.test(card.trim()))?.[1] ?? null;
}

const FOOTBALL_WORDS: Record<FootballEvent, string> = {
  goal: 'Goal',
  ownGoal: 'Own goal',
  ownGoalFor: 'Own goal',
  yellowCard: 'Yellow card',
  secondYellow: 'Second yellow card',
  redCard: 'Red card',
};

/** A person as a feed names them: a string, or an object's `name` (or `firstName` + `lastName`). */
function personName(value: unknown): string | null {
  if (!isRecord(value)) return word(value);
  const o = value;
  const parts = [word(o.firstName), word(o.lastName) ?? word(o.familyName)].filter((x) => x !== null);
  return word(o.name) ?? (parts.length > 0 ? parts.join(' ') : null);
}

const PENALTY = /^(pen|penalty|penalty[ _-]?kick|penalty[ _-]?goal|elfmeter|strafsto(ss|ß))$/i;

/** Whether a football goal was a penalty: `penalty: true`, or a sub-type or shot type that says so (StatsBomb's `shot.type.name`). */
function isPenalty(entry: Obj): boolean {
  if (entry.penalty === true || entry.penalty === 'true' || entry.isPenalty === true) return true;
  const said = [word(entry.subType), named(entry.type), word(entry.method), word(entry.goalType), named(inner(entry, 'shot').type)];
  return said.some((w) => w !== null && PENALTY.test(w));
}

/** A goal as a sheet reads it: "Goal (pen)", "Goal, assist: F. Weber". */
function goalWords(entry: Obj): string {
  const assist = first([personName(entry.assist), word(entry.assistName), word(entry.assistPlayerName), personName(entry.assistedBy)]);
  return `Goal${isPenalty(entry) ? ' (pen)' : ''}${assist === null ? '' : `, assist: ${assist}`}`;
}

const first = (values: (string | null)[]) => values.find((v) => v !== null) ?? null;

/**
 * A substitution with who came on and who went off: `playerIn` / `playerOut` (names, or objects
 * with `name`), `player_in` / `player_out`, or StatsBomb's `player` going off for
 * `substitution.replacement`. "Substitution: Ole Schulz on for Timo Brandt"; null when neither is named.
 */
function substitutionWords(entry: Obj): string | null {
  const on = first([personName(entry.playerIn), personName(entry.player_in), personName(inner(entry, 'substitution').replacement)]);
  const statsBomb = typeof entry.substitution === 'object' && entry.substitution !== null;
  const off = first([personName(entry.playerOut), personName(entry.player_out), statsBomb ? personName(entry.player) : null]);
  if (on === null && off === null) return null;
  if (on !== null && off !== null) return `Substitution: ${on} on for ${off}`;
  return on !== null ? `Substitution: ${on} on` : `Substitution: ${off} off`;
}

/** Readable words for one play-by-play entry: "Attack: kill", "3-pt shot made", "Goal", "Point". */
export function actionWords(sport: string | null, entry: Obj): string {
  const kind = sportOf(sport);
  const skillRaw = word(entry.skill);
  const evaluation = word(entry.evaluation) ?? word(entry.grade) ?? word(entry.quality);
  if (skillRaw !== null) {
    const skill = SKILL_NAMES[skillRaw.toLowerCase()] ?? skillRaw.toLowerCase();
    const codes = VOLLEYBALL_CODES[skill] ?? GENERIC_CODES;
    const said = evaluation === null ? null : (codes[evaluation] ?? GENERIC_CODES[evaluation] ?? evaluation);
    return said === null ? capital(skill) : `${capital(skill)}: ${said}`;
  }
  if (kind === 'football') {
    const event = footballEvent(entry);
    if (event === 'goal') return goalWords(entry);
    if (event !== null) return FOOTBALL_WORDS[event];
  }
  const type = word(entry.actionType) ?? named(entry.type) ?? word(entry.action) ?? word(entry.event);
  if (type !== null && /^(substitution|sub)$/i.test(type)) {
    const sub = substitutionWords(entry);
    if (sub !== null) return sub;
  }
  const sub = word(entry.subType) ?? word(entry.descriptor);
  const result = word(entry.shotResult) ?? word(entry.result) ?? word(entry.outcome) ?? named(inner(entry, 'shot').outcome);
  if (type === null) return result === null ? '—' : capital(result);
  const lower = type.toLowerCase();
  const name = (kind === 'basketball' || lower in BASKETBALL_TYPES ? BASKETBALL_TYPES[lower] : undefined) ?? capital(statLabel(type).toLowerCase());
  const parts = [sub !== null && lower === 'rebound' ? `${capital(sub.toLowerCase())} rebound` : sub !== null ? `${name} (${sub.toLowerCase()})` : name];
  if (result !== null) parts.push(kind === 'football' ? `(${result.toLowerCase()})` : result.toLowerCase());
  return parts.join(' ');
}
