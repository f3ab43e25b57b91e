// The diff as it was before its work was bounded (commit 41bdc2f, src/domain/matchDiff.ts), kept
// only as the reference test/domain/matchDiff.test.ts holds the bounded diff to: it sorts and
// compares every field, and pairs players and labels lines by searching lists.
import { FINGERPRINT_CHARS, jsonFingerprint, shortHash } from '../../src/domain/jsonFingerprint.js';
import { type MatchSummary, type PlayerLine, summarizeMatch } from '../../src/domain/matchPayload.js';

/**
 * What changed between two versions of a match, compactly: the score, the score by set or
 * period, player stats, the play-by-play, and which other top-level fields changed.
 */
export interface MatchDiff {
  score: { home: Change<number | null>; away: Change<number | null> } | null;
  /** Team names that changed. */
  teams: { side: 'home' | 'away'; from: string | null; to: string | null }[];
  /** Players renamed or given another shirt number. */
  players: { player: string; change: 'renamed' | 'renumbered'; from: string | null; to: string | null }[];
  lines: { label: string; home: Change<number | null>; away: Change<number | null> }[];
  stats: { player: string; stat: string; from: number | null; to: number | null }[];
  actions: { before: number; after: number; added: number; removed: number; changed: number };
  fields: { field: string; change: 'added' | 'removed' | 'changed' }[];
  /** Items left out of the lists above, which hold at most DIFF_LIST_MAX each. */
  omitted: number;
}

/** Longest list a diff carries, so that one history entry stays small whatever the payload. */
const DIFF_LIST_MAX = 100;

interface Change<T> {
  from: T;
  to: T;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Top-level fields whose changes are already described above in detail. */
const DESCRIBED = new Set(['homeTeam', 'awayTeam', 'home', 'away', 'teams', 'score', 'sets', 'periods', 'playerStats', 'players', 'actions']);

/** The parts of a summary a diff compares. */
type Scored = Pick<MatchSummary, 'home' | 'away' | 'lines' | 'players'>;

/**
 * What a diff needs of one version, much smaller than the payload: the summary's teams, lines
 * and players, and fingerprints of each action and of each other top-level field. Stored by the
 * matchHistory projection so the next version can be compared without the previous payload.
 */
export interface DiffBasis extends Scored {
  /** Per action, the hash of its key then its fingerprint, FINGERPRINT_CHARS each, concatenated (~16 bytes an action). */
  actions: string;
  fields: [field: string, fingerprint: string][];
}

const actionKey = (a: unknown, i: number) =>
  isObj(a) && (typeof a.id === 'string' || typeof a.id === 'number') ? `id:${a.id}` : isObj(a) && typeof a.seq === 'number' ? `seq:${a.seq}` : `#${i}`;

/** `summary` is summarizeMatch(payload), when the caller has it already. */
function diffBasis(payload: unknown, summary: MatchSummary = summarizeMatch(payload)): DiffBasis {
  const { home, away, lines, players } = summary;
  const obj = isObj(payload) ? payload : {};
  const actions = Array.isArray(obj.actions) ? obj.actions : [];
  return {
    home,
    away,
    lines,
    players,
    // Actions are matched by their `id`, else by `seq`, else by position in the list.
    actions: actions.map((a, i) => shortHash(actionKey(a, i)) + jsonFingerprint(a)).join(''),
    fields: Object.keys(obj)
      .filter((field) => !DESCRIBED.has(field))
      .map((field): [string, string] => [field, jsonFingerprint(obj[field])]),
  };
}

function changed<T>(from: T, to: T): Change<T> | null {
  return from === to ? null : { from, to };
}

function scoreDiff(a: Scored, b: Scored): MatchDiff['score'] {
  if (a.home.score === b.home.score && a.away.score === b.away.score) return null;
  return { home: { from: a.home.score, to: b.home.score }, away: { from: a.away.score, to: b.away.score } };
}

function linesDiff(a: Scored, b: Scored): MatchDiff['lines'] {
  const labels = [...new Set([...a.lines, ...b.lines].map((l) => l.label))];
  return labels.flatMap((label) => {
    const before = a.lines.find((l) => l.label === label);
    const after = b.lines.find((l) => l.label === label);
    const home = changed(before?.home ?? null, after?.home ?? null);
    const away = changed(before?.away ?? null, after?.away ?? null);
    if (!home && !away) return [];
    return [{ label, home: { from: before?.home ?? null, to: after?.home ?? null }, away: { from: before?.away ?? null, to: after?.away ?? null } }];
  });
}

function teamsDiff(a: Scored, b: Scored): MatchDiff['teams'] {
  return (['home', 'away'] as const).flatMap((side) => (a[side].name === b[side].name ? [] : [{ side, from: a[side].name, to: b[side].name }]));
}

const display = (p: PlayerLine) => [p.number === null ? null : `#${p.number}`, p.name].filter(Boolean).join(' ') || p.key;

/**
 * Players of two versions, paired: by key (their id, or number and name), and the rest in list
 * order within their team, so a renamed or renumbered player without an id is still the same player.
 */
function pairPlayers(a: Scored, b: Scored): [PlayerLine | null, PlayerLine | null][] {
  const afterKeys = new Set(b.players.map((p) => p.key));
  const beforeKeys = new Set(a.players.map((p) => p.key));
  const byKey = new Map(b.players.map((p) => [p.key, p]));
  const pairs: [PlayerLine | null, PlayerLine | null][] = a.players.filter((p) => afterKeys.has(p.key)).map((p) => [p, byKey.get(p.key) ?? null]);
  const gone = a.players.filter((p) => !afterKeys.has(p.key));
  const come = b.players.filter((p) => !beforeKeys.has(p.key));
  for (const p of gone) {
    const i = come.findIndex((q) => q.team === p.team && (q.playerId === null || p.playerId === null));
    pairs.push([p, i >= 0 ? come.splice(i, 1)[0]! : null]);
  }
  for (const q of come) pairs.push([null, q]);
  return pairs;
}

function playersDiff(pairs: [PlayerLine | null, PlayerLine | null][]): MatchDiff['players'] {
  return pairs.flatMap(([p, q]) => {
    if (p === null || q === null) return [];
    const out: MatchDiff['players'] = [];
    if (p.name !== q.name) out.push({ player: display(q), change: 'renamed', from: p.name, to: q.name });
    if (p.number !== q.number) out.push({ player: display(q), change: 'renumbered', from: p.number, to: q.number });
    return out;
  });
}

function statsDiff(pairs: [PlayerLine | null, PlayerLine | null][]): MatchDiff['stats'] {
  const out: MatchDiff['stats'] = [];
  for (const [p, q] of pairs) {
    const name = q ? display(q) : p ? display(p) : '';
    for (const stat of new Set([...Object.keys(p?.stats ?? {}), ...Object.keys(q?.stats ?? {})])) {
      const from = p?.stats[stat] ?? null;
      const to = q?.stats[stat] ?? null;
      if (from !== to) out.push({ player: name, stat, from, to });
    }
  }
  return out;
}

/** The basis's actions as key hash → fingerprint. */
function actionFingerprints(basis: DiffBasis): Map<string, string> {
  const byKey = new Map<string, string>();
  const width = 2 * FINGERPRINT_CHARS;
  for (let at = 0; at + width <= basis.actions.length; at += width) {
    byKey.set(basis.actions.slice(at, at + FINGERPRINT_CHARS), basis.actions.slice(at + FINGERPRINT_CHARS, at + width));
  }
  return byKey;
}

function actionsDiff(before: DiffBasis, after: DiffBasis): MatchDiff['actions'] {
  const a = actionFingerprints(before);
  const b = actionFingerprints(after);
  let added = 0;
  let changedCount = 0;
  for (const [key, fingerprint] of b) {
    const old = a.get(key);
    if (old === undefined) added += 1;
    else if (old !== fingerprint) changedCount += 1;
  }
  const removed = [...a.keys()].filter((key) => !b.has(key)).length;
  return { before: a.size, after: b.size, added, removed, changed: changedCount };
}

function fieldsDiff(before: DiffBasis, after: DiffBasis): MatchDiff['fields'] {
  const a = new Map(before.fields);
  const b = new Map(after.fields);
  const out: MatchDiff['fields'] = [];
  for (const field of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (!a.has(field)) out.push({ field, change: 'added' });
    else if (!b.has(field)) out.push({ field, change: 'removed' });
    else if (a.get(field) !== b.get(field)) out.push({ field, change: 'changed' });
  }
  return out;
}

/** Pure and total: any two JSON values give a diff, never an exception, and no recursion on their depth. */
export const diffMatch = (before: unknown, after: unknown): MatchDiff => diffBases(diffBasis(before), diffBasis(after));

function diffBases(a: DiffBasis, b: DiffBasis): MatchDiff {
  const pairs = pairPlayers(a, b);
  let omitted = 0;
  const capped = <T>(list: T[]): T[] => {
    omitted += Math.max(0, list.length - DIFF_LIST_MAX);
    return list.slice(0, DIFF_LIST_MAX);
  };
  return {
    score: scoreDiff(a, b),
    teams: teamsDiff(a, b),
    players: capped(playersDiff(pairs)),
    lines: capped(linesDiff(a, b)),
    stats: capped(statsDiff(pairs)),
    actions: actionsDiff(a, b),
    fields: capped(fieldsDiff(a, b)),
    omitted,
  };
}
