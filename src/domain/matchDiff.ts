import { createHash } from 'node:crypto';
import { FINGERPRINT_CHARS, jsonFingerprint, jsonText, shortHash } from './jsonFingerprint.js';
import { type MatchSummary, type PlayerLine, summarizeMatch } from './matchPayload.js';

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
  /** `edited`: where the first EDITED_NAMED edited actions are in the new version's list (0-based; absent in diffs made before). */
  actions: { before: number; after: number; added: number; removed: number; changed: number; edited?: number[] };
  /** `from` and `to`: the field's value where it is a short scalar (FIELD_VALUE_CHARS), on the side it has one. */
  fields: { field: string; change: 'added' | 'removed' | 'changed'; from?: FieldValue; to?: FieldValue }[];
  /** Items left out of the lists above, which hold at most DIFF_LIST_MAX each. */
  omitted: number;
}

/** Longest list a diff carries, so that one history entry stays small whatever the payload. */
export const DIFF_LIST_MAX = 100;

/** Edited actions a diff names by their place; the others are counted. */
export const EDITED_NAMED = 5;

/** A top-level field's value a basis keeps to show from → to: JSON scalars, strings of at most FIELD_VALUE_CHARS. */
type FieldValue = string | number | boolean | null;
const FIELD_VALUE_CHARS = 80;

/** `value` when a diff may show it (a scalar, a short string), else undefined: a long text or an object is only said to have changed. */
const fieldValue = (value: unknown): FieldValue | undefined =>
  value === null || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= FIELD_VALUE_CHARS)
    ? value
    : undefined;

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
 * Bounded whatever the payload: past DIFF_BASIS_FIELDS other fields, the rest are REST_BUCKETS digests.
 */
export interface DiffBasis extends Scored {
  /** Per action, the hash of its key then its fingerprint, FINGERPRINT_CHARS each, concatenated (~16 bytes an action). */
  actions: string;
  /** How many distinct keys the actions have (a key's entries after its first are the same action edited). */
  keys: number;
  /**
   * A JSON text of the actions up to the end of the last one (JSON.stringify's without its closing
   * bracket, or the payload's own text: ./matchDiffText.ts): its length and SHA-256 of its UTF-8.
   * A next version whose actions' text starts with it and has an action's end there (a live
   * match: one more rally) keeps those actions' fingerprints and fingerprints only the ones after.
   */
  actionsText: { chars: number; digest: string };
  /** The first DIFF_BASIS_FIELDS other top-level fields, each with its fingerprint, and its value when a scalar (fieldValue). */
  fields: [field: string, fingerprint: string, value?: FieldValue][];
  /** Digests of the fields past those, REST_BUCKETS of DIGEST_CHARS each by field name; null when there are none. */
  rest: string | null;
}

/** Version of the basis's layout: a stored basis of another version is made again from its payload. */
export const DIFF_BASIS_FORMAT = 6;

/** Other top-level fields a basis names one by one; the rest are compared by bucket digests (a wide payload's basis stays small). */
export const DIFF_BASIS_FIELDS = 10_000;

/** Buckets the fields past DIFF_BASIS_FIELDS are digested in: a changed bucket counts as one change at least. */
const REST_BUCKETS = 64;
const DIGEST_CHARS = 14;

const actionKey = (a: unknown, i: number) =>
  isObj(a) && (typeof a.id === 'string' || typeof a.id === 'number') ? `id:${a.id}` : isObj(a) && typeof a.seq === 'number' ? `seq:${a.seq}` : `#${i}`;

/** An action's key hash then fingerprint. */
export const actionEntry = (a: unknown, i: number) => shortHash(actionKey(a, i)) + jsonFingerprint(a);

const ENTRY_CHARS = 2 * FINGERPRINT_CHARS;

/**
 * New entries looked up one by one in the entries before them (a native search each); more are
 * put in a map of all the keys instead, so the lookups cost at most this many scans of the list.
 */
const LOOKUPS_MAX = 64;

/**
 * Where the last entry of key hash `key` in `entries` begins (an entry's start, not a match across
 * two), or -1. A forward search first, which skips through the text faster than a backward one:
 * the key of a new action, the usual case, is in none.
 */
function lastEntryOf(entries: string, key: string): number {
  let at = entries.indexOf(key);
  while (at >= 0 && at % ENTRY_CHARS !== 0) at = entries.indexOf(key, at + 1);
  if (at < 0) return -1;
  let last = entries.lastIndexOf(key, entries.length - ENTRY_CHARS);
  while (last > at && last % ENTRY_CHARS !== 0) last = entries.lastIndexOf(key, last - 1);
  return last;
}

/**
 * How many distinct keys `entries` have, when they start with those of `previous`: a few new
 * entries are looked up in the previous ones, more are counted in a set.
 */
function distinctKeys(entries: string, previous: DiffBasis | null): number {
  const head = previous?.actions ?? '';
  if (head.length === 0 || entries.length - head.length > LOOKUPS_MAX * ENTRY_CHARS) {
    const keys = new Set<string>();
    for (let at = 0; at < entries.length; at += ENTRY_CHARS) keys.add(entries.slice(at, at + FINGERPRINT_CHARS));
    return keys.size;
  }
  const met = new Set<string>();
  for (let at = head.length; at < entries.length; at += ENTRY_CHARS) {
    const key = entries.slice(at, at + FINGERPRINT_CHARS);
    if (!met.has(key) && lastEntryOf(head, key) < 0) met.add(key);
  }
  return previous!.keys + met.size;
}

/** The actions' JSON text without its closing bracket; null for actions nested too deep for JSON.stringify (stored before MAX_JSON_DEPTH). */
function openActionsText(actions: unknown[]): string | null {
  try {
    return JSON.stringify(actions).slice(0, -1);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return null;
  }
}

/** A text no next version's actions start with. */
export const NO_ACTIONS_TEXT: DiffBasis['actionsText'] = { chars: -1, digest: '' };

/**
 * Fingerprints of the actions and the digest of their text. JSON.stringify of an array is its
 * elements' texts joined by commas in brackets (parsed JSON holds no undefined or functions), so
 * when the previous version's text is a prefix of this one's, ending where this one's does or
 * before one of its commas, the actions it covers are the same and keep their fingerprints: a
 * live match's next version fingerprints only its new rallies.
 */
function actionsBasis(actions: unknown[], previous: DiffBasis | null): ActionsPart {
  const open = openActionsText(actions);
  if (open === null) return actionsPart(actions.map(actionEntry).join(''), NO_ACTIONS_TEXT);
  const hash = createHash('sha256');
  const kept = previous === null ? 0 : previous.actions.length / (2 * FINGERPRINT_CHARS);
  const text = previous?.actionsText ?? NO_ACTIONS_TEXT;
  const ends = text.chars === open.length || (text.chars >= 0 && text.chars < open.length && open.charCodeAt(text.chars) === 44) /* , */;
  if (previous !== null && kept > 0 && ends) {
    hash.update(open.slice(0, text.chars));
    if (hash.copy().digest('base64url') === text.digest) {
      hash.update(open.slice(text.chars));
      let entries = previous.actions;
      for (let i = kept; i < actions.length; i += 1) entries += actionEntry(actions[i], i);
      return actionsPart(entries, { chars: open.length, digest: hash.digest('base64url') }, previous);
    }
  }
  return actionsPart(actions.map(actionEntry).join(''), { chars: open.length, digest: createHash('sha256').update(open).digest('base64url') });
}

/** A basis's part about its actions. */
export type ActionsPart = Pick<DiffBasis, 'actions' | 'keys' | 'actionsText'>;

/** The actions' part of entries, which start with those of `previous` when given. */
export function actionsPart(actions: string, actionsText: DiffBasis['actionsText'], previous: DiffBasis | null = null): ActionsPart {
  return { actions, keys: distinctKeys(actions, previous), actionsText };
}

/** A value's JSON text, or for one nested too deep for JSON.stringify its fingerprint (jsonFingerprint walks it). */
function valueText(value: unknown): string {
  try {
    return jsonText(value) ?? 'undefined';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonFingerprint(value);
  }
}

/**
 * The digests of the fields past DIFF_BASIS_FIELDS: two 32-bit lanes per bucket, mixed with each
 * field's name hash and value text in order. A field stays in its name's bucket whatever its
 * value; no string is made per field beyond its value's text.
 */
function restDigests() {
  const lanes = new Uint32Array(2 * REST_BUCKETS);
  let count = 0;
  return {
    add(field: string, value: unknown) {
      count += 1;
      let name = 0x811c9dc5;
      for (let i = 0; i < field.length; i += 1) name = Math.imul(name ^ field.charCodeAt(i), 16777619);
      const bucket = (name >>> 0) % REST_BUCKETS;
      let h1 = Math.imul(lanes[2 * bucket]! ^ name, 2654435761);
      let h2 = Math.imul(lanes[2 * bucket + 1]! ^ name, 1597334677);
      const text = valueText(value);
      for (let i = 0; i < text.length; i += 1) {
        h1 = Math.imul(h1 ^ text.charCodeAt(i), 2654435761);
        h2 = Math.imul(h2 ^ text.charCodeAt(i), 1597334677);
      }
      lanes[2 * bucket] = h1;
      lanes[2 * bucket + 1] = h2;
    },
    digests(): string | null {
      if (count === 0) return null;
      let digests = '';
      for (let b = 0; b < REST_BUCKETS; b += 1) digests += lanes[2 * b]!.toString(36).padStart(7, '0') + lanes[2 * b + 1]!.toString(36).padStart(7, '0');
      return digests;
    },
  };
}

/**
 * `summary` is summarizeMatch(payload), when the caller has it already; `previous`, the basis of
 * the version before, lets the actions it shares with this one keep their fingerprints (the
 * result is the same with or without it).
 */
export function diffBasis(payload: unknown, summary: MatchSummary = summarizeMatch(payload), previous: DiffBasis | null = null): DiffBasis {
  const obj = isObj(payload) ? payload : {};
  // Actions are matched by their `id`, else by `seq`, else by position in the list.
  return basisWith(payload, summary, actionsBasis(Array.isArray(obj.actions) ? obj.actions : [], previous));
}

/** The basis of a payload whose actions' part is made already (from its text: ./matchDiffText.ts). */
export function basisWith(payload: unknown, summary: MatchSummary, actions: ActionsPart): DiffBasis {
  const { home, away, lines, players } = summary;
  const obj = isObj(payload) ? payload : {};
  const fields: DiffBasis['fields'] = [];
  const rest = restDigests();
  for (const field of Object.keys(obj)) {
    if (DESCRIBED.has(field)) continue;
    if (fields.length >= DIFF_BASIS_FIELDS) rest.add(field, obj[field]);
    else {
      const value = fieldValue(obj[field]);
      fields.push(value === undefined ? [field, jsonFingerprint(obj[field])] : [field, jsonFingerprint(obj[field]), value]);
    }
  }
  return { home, away, lines, players, ...actions, fields, rest: rest.digests() };
}

function changed<T>(from: T, to: T): Change<T> | null {
  return from === to ? null : { from, to };
}

function scoreDiff(a: Scored, b: Scored): MatchDiff['score'] {
  if (a.home.score === b.home.score && a.away.score === b.away.score) return null;
  return { home: { from: a.home.score, to: b.home.score }, away: { from: a.away.score, to: b.away.score } };
}

function linesDiff(a: Scored, b: Scored): MatchDiff['lines'] {
  // The first line of each label, as find() would give it, without a scan per label.
  const firstByLabel = (lines: Scored['lines']) => {
    const byLabel = new Map<string, Scored['lines'][number]>();
    for (const line of lines) if (!byLabel.has(line.label)) byLabel.set(line.label, line);
    return byLabel;
  };
  const before = firstByLabel(a.lines);
  const after = firstByLabel(b.lines);
  const labels = new Set([...before.keys(), ...after.keys()]);
  return [...labels].flatMap((label) => {
    const from = before.get(label);
    const to = after.get(label);
    const home = changed(from?.home ?? null, to?.home ?? null);
    const away = changed(from?.away ?? null, to?.away ?? null);
    if (!home && !away) return [];
    return [{ label, home: { from: from?.home ?? null, to: to?.home ?? null }, away: { from: from?.away ?? null, to: to?.away ?? null } }];
  });
}

function teamsDiff(a: Scored, b: Scored): MatchDiff['teams'] {
  return (['home', 'away'] as const).flatMap((side) => (a[side].name === b[side].name ? [] : [{ side, from: a[side].name, to: b[side].name }]));
}

const display = (p: PlayerLine) => [p.number === null ? null : `#${p.number}`, p.name].filter(Boolean).join(' ') || p.key;

/**
 * Players of two versions, paired: by key (their id, or number and name), and the rest in list
 * order within their team, so a renamed or renumbered player without an id is still the same player.
 * Linear: each team's unpaired newcomers are taken from the front of a queue, not searched for.
 */
function pairPlayers(a: Scored, b: Scored): [PlayerLine | null, PlayerLine | null][] {
  const afterKeys = new Set(b.players.map((p) => p.key));
  const beforeKeys = new Set(a.players.map((p) => p.key));
  const byKey = new Map(b.players.map((p) => [p.key, p]));
  const pairs: [PlayerLine | null, PlayerLine | null][] = a.players.filter((p) => afterKeys.has(p.key)).map((p) => [p, byKey.get(p.key) ?? null]);
  const gone = a.players.filter((p) => !afterKeys.has(p.key));
  const come = b.players.filter((p) => !beforeKeys.has(p.key));
  const taken = new Set<PlayerLine>();
  // Per team, its newcomers in list order: all of them, and those without an id.
  const anyOfTeam = new Map<PlayerLine['team'], NewcomerQueue>();
  const idlessOfTeam = new Map<PlayerLine['team'], NewcomerQueue>();
  for (const q of come) {
    queueOf(anyOfTeam, q.team).list.push(q);
    if (q.playerId === null) queueOf(idlessOfTeam, q.team).list.push(q);
  }
  for (const p of gone) {
    // Paired with the first newcomer of its team that it or the newcomer lacks an id for.
    const queue = (p.playerId === null ? anyOfTeam : idlessOfTeam).get(p.team);
    const q = queue === undefined ? null : takeFirst(queue, taken);
    pairs.push([p, q]);
  }
  for (const q of come) if (!taken.has(q)) pairs.push([null, q]);
  return pairs;
}

interface NewcomerQueue {
  list: PlayerLine[];
  next: number;
}

function queueOf(queues: Map<PlayerLine['team'], NewcomerQueue>, team: PlayerLine['team']): NewcomerQueue {
  let queue = queues.get(team);
  if (queue === undefined) {
    queue = { list: [], next: 0 };
    queues.set(team, queue);
  }
  return queue;
}

/** The queue's first player not yet taken, now taken; each player is skipped at most once per queue. */
function takeFirst(queue: NewcomerQueue, taken: Set<PlayerLine>): PlayerLine | null {
  while (queue.next < queue.list.length && taken.has(queue.list[queue.next]!)) queue.next += 1;
  const q = queue.list[queue.next];
  if (q === undefined) return null;
  queue.next += 1;
  taken.add(q);
  return q;
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

const NO_STATS: PlayerLine['stats'] = {};

/** Per pair, its stats that differ: the older's in order, then the newer's it lacks; a player's name made only when one does. */
function statsDiff(pairs: [PlayerLine | null, PlayerLine | null][]): MatchDiff['stats'] {
  const out: MatchDiff['stats'] = [];
  for (const [p, q] of pairs) {
    const before = p?.stats ?? NO_STATS;
    let name: string | null = null;
    const note = (stat: string) => {
      const from = p?.stats[stat] ?? null;
      const to = q?.stats[stat] ?? null;
      if (from === to) return;
      name ??= q ? display(q) : p ? display(p) : '';
      out.push({ player: name, stat, from, to });
    };
    for (const stat of Object.keys(before)) note(stat);
    // A stats object's fields are all its own and enumerable (parsed JSON, or made by summarizeMatch).
    for (const stat of Object.keys(q?.stats ?? NO_STATS)) if (!Object.hasOwn(before, stat)) note(stat);
  }
  return out;
}

/** Whether `text` starts with `start`: a slice compared (a native comparison) is ~30× faster than startsWith on a concatenated string. */
const startsWith = (text: string, start: string) => text.length >= start.length && text.slice(0, start.length) === start;

/** The basis's actions as key hash → fingerprint. */
function actionFingerprints(basis: Pick<DiffBasis, 'actions'>): Map<string, string> {
  const byKey = new Map<string, string>();
  const width = 2 * FINGERPRINT_CHARS;
  for (let at = 0; at + width <= basis.actions.length; at += width) {
    byKey.set(basis.actions.slice(at, at + FINGERPRINT_CHARS), basis.actions.slice(at + FINGERPRINT_CHARS, at + width));
  }
  return byKey;
}

/**
 * Actions paired by key. When the new list starts with the old one (a live match's next rally),
 * only the actions after it are compared with the old ones: the shared ones are unchanged, and
 * a key's last entry, which a map keeps, is in the tail when the tail has it. The distinct keys
 * each basis counts tell how many new keys the tail brings; only when some of its keys are old
 * are they looked up (a few one by one, the last entry of the key as a map keeps it), so a live
 * match's version is compared without going through every action the match had.
 */
function actionsDiff(before: DiffBasis, after: DiffBasis): MatchDiff['actions'] {
  const counted = countedActions(before, after);
  if (counted.changed === 0) return counted.diff;
  // The few edited keys named by where their last entry is in the new list (a native search each).
  const edited = counted.keys.map((key) => lastEntryOf(after.actions, key) / ENTRY_CHARS).sort((x, y) => x - y);
  return { ...counted.diff, edited };
}

/** actionsDiff's counts, and the first EDITED_NAMED keys it found edited. */
function countedActions(before: DiffBasis, after: DiffBasis): { diff: MatchDiff['actions']; changed: number; keys: string[] } {
  const keys: string[] = [];
  const edit = (key: string) => {
    if (keys.length < EDITED_NAMED) keys.push(key);
  };
  const result = (diff: MatchDiff['actions']) => ({ diff, changed: diff.changed, keys });
  if (startsWith(after.actions, before.actions)) {
    const tail = actionFingerprints({ actions: after.actions.slice(before.actions.length) });
    // The keys the old list lacks are the new distinct ones; the others, if any, are looked up.
    const added = after.keys - before.keys;
    const grown = { before: before.keys, after: after.keys, added, removed: 0, changed: 0 };
    if (tail.size === added) return result(grown);
    if (tail.size <= LOOKUPS_MAX) {
      for (const [key, fingerprint] of tail) {
        const at = lastEntryOf(before.actions, key);
        if (at >= 0 && before.actions.slice(at + FINGERPRINT_CHARS, at + ENTRY_CHARS) !== fingerprint) {
          grown.changed += 1;
          edit(key);
        }
      }
      return result(grown);
    }
    const a = actionFingerprints(before);
    for (const [key, fingerprint] of tail) {
      const old = a.get(key);
      if (old !== undefined && old !== fingerprint) {
        grown.changed += 1;
        edit(key);
      }
    }
    return result(grown);
  }
  const a = actionFingerprints(before);
  const b = actionFingerprints(after);
  let added = 0;
  let changedCount = 0;
  for (const [key, fingerprint] of b) {
    const old = a.get(key);
    if (old === undefined) added += 1;
    else if (old !== fingerprint) {
      changedCount += 1;
      edit(key);
    }
  }
  const removed = [...a.keys()].filter((key) => !b.has(key)).length;
  return result({ before: a.size, after: b.size, added, removed, changed: changedCount });
}

/** A capped list: at most DIFF_LIST_MAX items, and how many more there were. */
interface Capped<T> {
  listed: T[];
  more: number;
}

/** Buckets of the fields past DIFF_BASIS_FIELDS whose digests differ (none past them: every bucket empty). */
function restChanges(before: string | null, after: string | null): number {
  if (before === after) return 0;
  const empty = '0'.repeat(REST_BUCKETS * DIGEST_CHARS);
  const a = before ?? empty;
  const b = after ?? empty;
  let changedBuckets = 0;
  for (let at = 0; at < a.length; at += DIGEST_CHARS) if (a.slice(at, at + DIGEST_CHARS) !== b.slice(at, at + DIGEST_CHARS)) changedBuckets += 1;
  return changedBuckets;
}

const byField = (x: { field: string }, y: { field: string }) => (x.field < y.field ? -1 : x.field > y.field ? 1 : 0);

/**
 * The other top-level fields added, removed or changed, in one pass over each version's list and
 * no sort of it: fields are compared by fingerprint; the first DIFF_LIST_MAX changes met (in the
 * new version's order, then the removed ones) are listed, sorted by name, the rest only counted.
 * Two lists that start with the same fields in the same order, the usual case, are compared
 * position by position; only the rest of the older list goes into a map.
 */
function fieldsDiff(before: DiffBasis, after: DiffBasis): Capped<MatchDiff['fields'][number]> {
  const a = before.fields;
  const b = after.fields;
  const listed: MatchDiff['fields'] = [];
  let more = 0;
  type Entry = DiffBasis['fields'][number];
  const note = (field: string, change: 'added' | 'removed' | 'changed', from?: Entry, to?: Entry) => {
    if (listed.length >= DIFF_LIST_MAX) {
      more += 1;
      return;
    }
    const values = { ...(from?.[2] !== undefined && { from: from[2] }), ...(to?.[2] !== undefined && { to: to[2] }) };
    listed.push({ field, change, ...values });
  };
  let i = 0;
  for (; i < a.length && i < b.length && a[i]![0] === b[i]![0]; i += 1) {
    if (a[i]![1] !== b[i]![1]) note(a[i]![0], 'changed', a[i], b[i]);
  }
  // Past the common start, no field of `b` is among a's first i fields (their names are b's first i).
  const rest = new Map<string, Entry>();
  for (let j = i; j < a.length; j += 1) rest.set(a[j]![0], a[j]!);
  for (let j = i; j < b.length; j += 1) {
    const entry = b[j]!;
    const old = rest.get(entry[0]);
    if (old === undefined) note(entry[0], 'added', undefined, entry);
    else if (old[1] !== entry[1]) note(entry[0], 'changed', old, entry);
    rest.delete(entry[0]);
  }
  for (const [field, old] of rest) note(field, 'removed', old);
  return { listed: listed.sort(byField), more: more + restChanges(before.rest, after.rest) };
}

/** Pure and total: any two JSON values give a diff, never an exception, and no recursion on their depth. */
export const diffMatch = (before: unknown, after: unknown): MatchDiff => diffBases(diffBasis(before), diffBasis(after));

export function diffBases(a: DiffBasis, b: DiffBasis): MatchDiff {
  const pairs = pairPlayers(a, b);
  const fields = fieldsDiff(a, b);
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
    fields: fields.listed,
    omitted: omitted + fields.more,
  };
}

/**
 * A diff as readable items, in one order for every reader: team renames, player renames and
 * shirt numbers, score, sets or periods, stats, actions, other fields, what was left out.
 * `stats: 'count'` gives one item for all stat changes (the history page's line); `'each'` one
 * per change (the replay command's lines).
 */
export function diffItems(diff: MatchDiff, stats: 'count' | 'each'): string[] {
  const parts: string[] = [];
  const n = (value: number | null) => (value === null ? '–' : String(value));
  const n2 = (value: string | null) => (value === null ? '–' : `#${value}`);
  const q = (value: string | null) => (value === null ? '–' : `“${value}”`);
  for (const team of diff.teams) parts.push(`${team.side} team renamed ${q(team.from)} → ${q(team.to)}`);
  for (const p of diff.players)
    parts.push(p.change === 'renamed' ? `player renamed ${q(p.from)} → ${q(p.to)}` : `${p.player}: shirt ${n2(p.from)} → ${n2(p.to)}`);
  if (diff.score) parts.push(`score ${n(diff.score.home.from)}:${n(diff.score.away.from)} → ${n(diff.score.home.to)}:${n(diff.score.away.to)}`);
  for (const line of diff.lines) parts.push(`${line.label} ${n(line.home.from)}–${n(line.away.from)} → ${n(line.home.to)}–${n(line.away.to)}`);
  if (stats === 'each') for (const s of diff.stats) parts.push(`${s.player}: ${s.stat} ${n(s.from)} → ${n(s.to)}`);
  else if (diff.stats.length > 0) parts.push(`${diff.stats.length} stat${diff.stats.length === 1 ? '' : 's'} changed`);
  const { added, removed, changed: edited } = diff.actions;
  if (added) parts.push(`+${added} action${added === 1 ? '' : 's'}`);
  if (removed) parts.push(`−${removed} action${removed === 1 ? '' : 's'}`);
  if (edited) parts.push(`${edited} action${edited === 1 ? '' : 's'} edited${editedPlaces(diff.actions)}`);
  for (const f of diff.fields) parts.push(fieldItem(f));
  if (diff.omitted > 0) parts.push(`and ${diff.omitted} more change${diff.omitted === 1 ? '' : 's'}`);
  return parts;
}

/** A field's value as an item shows it: text in quotes, numbers, true, false and null as JSON has them. */
const shown = (value: FieldValue) => (typeof value === 'string' ? `“${value}”` : String(value));

/** "status “live” → “final”", "venue added: “Hall 2”", "referee removed (was “K. Weber”)"; without values, "status changed". */
function fieldItem(f: MatchDiff['fields'][number]): string {
  if (f.change === 'changed' && 'from' in f && 'to' in f) return `${f.field} ${shown(f.from ?? null)} → ${shown(f.to ?? null)}`;
  if (f.change === 'added' && 'to' in f) return `${f.field} added: ${shown(f.to ?? null)}`;
  if (f.change === 'removed' && 'from' in f) return `${f.field} removed (was ${shown(f.from ?? null)})`;
  return `${f.field} ${f.change}`;
}

/** " (actions[3], actions[17])": where the edited actions named are in the new version, and how many more were. */
function editedPlaces({ changed, edited }: MatchDiff['actions']): string {
  if (edited === undefined || edited.length === 0) return '';
  const more = changed - edited.length;
  return ` (${edited.map((at) => `actions[${at}]`).join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}

/** One line a person can read: "score 2:1 → 3:1; Set 4 25–23; 3 stats changed; +12 actions". */
export function describeDiff(diff: MatchDiff): string {
  const parts = diffItems(diff, 'count');
  return parts.length > 0 ? parts.join('; ') : 'no change';
}
