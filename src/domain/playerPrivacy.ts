import { clubPlayers, clubSyncTarget, type ClubSyncTarget, mayNameClub } from './clubSync.js';
import { type JsonSelection, selectJson } from './jsonSelect.js';
import type { Side } from './matchEvents.js';
import type { MatchDiff } from './matchDiff.js';
import { type ActionLine, type MatchSummary, type PlayerLine, summarizeMatch } from './matchPayload.js';
import { type PrivacyLevel, shownName } from './teamPublicity.js';

/**
 * A team's privacy level applied to what the public sees of one of its matches (issue 61): the
 * names of the club's side's players (every player's when the side is not known) replaced by what
 * the level shows, in the page's summary and in the payload's anonymous view. Pure; the log, its
 * digests and receipts keep what was uploaded.
 */
export interface MatchPrivacy {
  level: Exclude<PrivacyLevel, 'full'>;
  /** The club's side, when known; null: every player of the match is named by the level. */
  side: Side;
}

/** A name as uploaded and what the public sees instead, longest first when applied. */
export type Replacement = readonly [found: string, shown: string];

/** What a payload says of the club it syncs into and of its sides, taken without parsing the rest. */
const SIDE_NAMING: JsonSelection = { teamId: true, id: true, name: true };
const PRIVACY_INPUT_OF_TEXT: JsonSelection = {
  clubId: true,
  teamId: true,
  side: true,
  teamSide: true,
  homeAway: true,
  homeTeam: SIDE_NAMING,
  awayTeam: SIDE_NAMING,
  home: SIDE_NAMING,
  away: SIDE_NAMING,
  teams: { home: SIDE_NAMING, away: SIDE_NAMING },
};

/**
 * The club and team a payload's text names (its privacy comes from them), and what finds the
 * club's side. A text that names no club is not scanned; one that cannot be read names none (its
 * pages show their error, whatever the privacy).
 */
export function privacyInputOfText(text: string): { target: ClubSyncTarget | null; sides: unknown } {
  if (!mayNameClub(text)) return { target: null, sides: null };
  try {
    const sides = selectJson(text, PRIVACY_INPUT_OF_TEXT);
    return { target: clubSyncTarget(sides), sides };
  } catch {
    return { target: null, sides: null };
  }
}

/** Words of at least this many letters are replaced on their own too (a family name in a play's description). */
const WORD_MIN = 3;

function variantsOf(name: string, number: string | null, level: MatchPrivacy['level']): Replacement[] {
  const found: Replacement[] = [[name, shownName(name, number, level)]];
  const words = name.split(/[\s,]+/).filter((word) => [...word.replace(/[.-]/g, '')].length >= WORD_MIN);
  for (const word of words) found.push([word, shownName(word, number, level === 'first-initial' ? 'initials' : level)]);
  return found;
}

/** The names of a match to replace, and by what: its affected players' names, their short forms and name words. */
export function replacementsOf(summary: Pick<MatchSummary, 'players' | 'actions'>, privacy: MatchPrivacy): Replacement[] {
  const players = clubPlayers(summary.players, privacy.side);
  const found = new Map<string, string>();
  const add = (name: string | null, number: string | null) => {
    if (name === null || name.trim() === '') return;
    for (const [was, shown] of variantsOf(name.trim(), number, privacy.level)) if (!found.has(was)) found.set(was, shown);
  };
  for (const player of players) {
    add(player.name, player.number);
    add(player.shortName, player.number);
  }
  // Play-by-play without a box score names players only in its actions: each of them is affected.
  if (summary.players.length === 0) for (const action of summary.actions()) add(action.playerName, null);
  return [...found].sort(([a], [b]) => b.length - a.length);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces whole words only: "Ann" does not touch "Anna" nor "Hannover". */
export function redactText(text: string, replacements: readonly Replacement[]): string {
  if (replacements.length === 0 || text === '') return text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${replacements.map(([was]) => escaped(was)).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  const shown = new Map(replacements);
  return text.replace(pattern, (was) => shown.get(was) ?? was);
}

/** Every string of a JSON value (member names too) with the replacements made; numbers, booleans and null stay. */
export function redactJson(value: unknown, replacements: readonly Replacement[]): unknown {
  if (typeof value === 'string') return redactText(value, replacements);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, replacements));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactText(key, replacements), redactJson(item, replacements)]));
  }
  return value;
}

/** A summary whose affected players, plays and details name players as the level shows them. */
export function privateSummary(summary: MatchSummary, privacy: MatchPrivacy): MatchSummary {
  const replacements = replacementsOf(summary, privacy);
  const affected = new Set(clubPlayers(summary.players, privacy.side));
  // Ids redacted alike in players and plays keep them joined (a feed keying players by name).
  const redact = (text: string | null) => (text === null ? null : redactText(text, replacements));
  const player = (line: PlayerLine): PlayerLine =>
    affected.has(line)
      ? {
          ...line,
          key: redactText(line.key, replacements),
          playerId: redact(line.playerId),
          name: shownName(line.name, line.number, privacy.level),
          shortName: null,
        }
      : line;
  const action = (line: ActionLine): ActionLine => ({
    ...line,
    playerId: redact(line.playerId),
    playerName: line.playerName === null ? null : redactText(line.playerName, replacements),
    description: redactText(line.description, replacements),
  });
  return {
    ...summary,
    players: summary.players.map(player),
    details: summary.details.map((detail) => ({ label: detail.label, value: redactText(detail.value, replacements) })),
    actions: () => summary.actions().map(action),
    actionAt: (index) => action(summary.actionAt(index)),
  };
}

/** A history entry's diff with its players named by the replacements (renames, renumberings and stat changes name them). */
export function privateDiff(diff: MatchDiff, replacements: readonly Replacement[]): MatchDiff {
  const redact = (text: string | null) => (text === null ? null : redactText(text, replacements));
  return {
    ...diff,
    players: diff.players.map((change) => ({ ...change, player: redactText(change.player, replacements), from: redact(change.from), to: redact(change.to) })),
    stats: diff.stats.map((change) => ({ ...change, player: redactText(change.player, replacements) })),
  };
}

/** A payload's JSON text as anonymous readers see it: parsed, its team's names replaced in every string, written again. */
export function privatePayloadText(text: string, privacy: MatchPrivacy): string {
  const payload: unknown = JSON.parse(text);
  return JSON.stringify(redactJson(payload, replacementsOf(summarizeMatch(payload), privacy)));
}

/** An ETag's part that tells answers through a privacy apart (a changed setting changes the tag). */
export const privacyTag = (privacy: MatchPrivacy | null) => (privacy === null ? '' : `-${privacy.level}-${privacy.side ?? 'all'}`);

/** A cache key's part that says which privacy a rendering applied ('' for none). */
export const privacyKey = (privacy: MatchPrivacy | null) => (privacy === null ? '' : `\0privacy:${privacy.level}:${privacy.side ?? 'all'}`);
