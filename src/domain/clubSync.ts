import type { AppKeyVerdict } from './club.js';
import type { ClubSyncEvent, Side } from './matchEvents.js';
import type { PlayerLine } from './matchPayload.js';
import { normalTeamName } from './teamName.js';

export { normalTeamName };

/**
 * Club sync rules (spec sections 2, 4, 5): when a payload names both a club and a team, its
 * players, stats and actions are copied into that club's dashboard, authenticated by the
 * club's app key in X-App-Key. What happens without a valid key depends on the enforcement.
 */
export type SyncEnforcement = 'log' | 'enforce';

export interface ClubSyncTarget {
  clubId: string;
  teamId: string;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

const IDENTIFIER_MAX = 128;

/** An identifier as text; null when it is absent (missing, null or blank). The API admits only strings and numbers. */
function identifier(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.slice(0, IDENTIFIER_MAX);
  if (typeof value === 'number') return String(value);
  return null;
}

/**
 * Cheap test on the raw text before parsing, for readers of stored payloads: false only when the
 * payload cannot name both. A \u escape could spell either key ("\u0063lubId"), so any escape
 * means "maybe". The write side decides on the parsed payload.
 */
export const mayNameClub = (payloadText: string) => {
  const escaped = payloadText.includes('\\u');
  return (escaped || payloadText.includes('"clubId"')) && (escaped || payloadText.includes('"teamId"'));
};

/** Sync is attempted when the payload has both clubId and teamId (blank counts as absent). */
export function clubSyncTarget(payload: unknown): ClubSyncTarget | null {
  if (!isObj(payload)) return null;
  const clubId = identifier(payload.clubId);
  const teamId = identifier(payload.teamId);
  return clubId !== null && teamId !== null ? { clubId, teamId } : null;
}

/** What the command layer found out, from the club's stream, about an attempted sync. */
export interface ClubSyncCheck extends ClubSyncTarget {
  enforcement: SyncEnforcement;
  /** Whether the club, and the team in it, exist. */
  found: 'club_and_team' | 'no_such_club' | 'no_such_team';
  key: AppKeyVerdict;
  side: Side;
}

/**
 * The outcome of an attempted sync, in this order:
 * 1. no club by that id: skipped (there is no dashboard to copy into), in both modes;
 * 2. no valid key under `enforce`: skipped;
 * 3. no team by that id in the club: skipped (the admin sees it in Sync status);
 * 4. no valid key under `log`: processed, flagged unauthenticated;
 * 5. a valid key of the club: accepted.
 */
export function decideClubSync(matchId: string, check: ClubSyncCheck): ClubSyncEvent {
  const { clubId, teamId, key, side } = check;
  const keyId = key.keyId;
  if (check.found === 'no_such_club') {
    return { type: 'ClubSyncSkipped', data: { matchId, clubId, teamId, reason: 'no_such_club', keyId: null } };
  }
  if (!key.valid && check.enforcement === 'enforce') {
    return { type: 'ClubSyncSkipped', data: { matchId, clubId, teamId, reason: key.problem, keyId } };
  }
  if (check.found === 'no_such_team') {
    return { type: 'ClubSyncSkipped', data: { matchId, clubId, teamId, reason: 'no_such_team', keyId } };
  }
  if (!key.valid) {
    return { type: 'ClubSyncUnauthenticated', data: { matchId, clubId, teamId, reason: key.problem, keyId, side } };
  }
  return { type: 'ClubSyncAccepted', data: { matchId, clubId, teamId, keyId: key.keyId, side } };
}

/** The spec's `crmSync: "skipped_auth"`: present exactly when the sync was skipped. */
export const skippedSync = (outcome: { type: string } | null) => outcome?.type === 'ClubSyncSkipped';

const sideOf = (value: unknown): Side => (value === 'home' || value === 'away' ? value : null);

function teamObject(payload: Obj, side: 'home' | 'away'): Obj | null {
  const nested = isObj(payload.teams) ? payload.teams : {};
  const value = payload[`${side}Team`] ?? payload[side] ?? nested[side];
  return isObj(value) ? value : null;
}

/** What the club says about its team: its id, its name and aliases, and a side the admin settled. */
export interface ClubTeamFacts {
  teamId: string;
  names: string[];
  settled: Side;
}

/**
 * Which side of the match is the club's team, in this order, never guessed:
 * 1. the side the admin settled for this match;
 * 2. a side whose team object carries the club's teamId;
 * 3. an explicit `side` / `teamSide` / `homeAway` field the app sends;
 * 4. exactly one side named like the club's team or one of its aliases (normalised).
 * Null when none of these tells: the match is then "side unknown" until the admin settles it.
 */
export function clubSide(payload: unknown, team: ClubTeamFacts): Side {
  if (team.settled !== null) return team.settled;
  if (!isObj(payload)) return null;
  const home = teamObject(payload, 'home');
  const away = teamObject(payload, 'away');
  const carriesId = (side: Obj | null) => side !== null && (side.teamId === team.teamId || side.id === team.teamId);
  if (carriesId(home) !== carriesId(away)) return carriesId(home) ? 'home' : 'away';
  const explicit = sideOf(payload.side) ?? sideOf(payload.teamSide) ?? sideOf(payload.homeAway);
  if (explicit !== null) return explicit;
  const known = new Set(team.names.map(normalTeamName).filter((name) => name !== ''));
  const named = (side: Obj | null) => side !== null && typeof side.name === 'string' && known.has(normalTeamName(side.name));
  if (named(home) !== named(away)) return named(home) ? 'home' : 'away';
  return null;
}

/** The players a sync copies: those of the club's side when it is known and players say their side, else all. */
export function clubPlayers<P extends { team?: PlayerLine['team'] | undefined }>(players: P[], side: Side): P[] {
  if (side === null || !players.some((player) => player.team === side)) return players;
  return players.filter((player) => player.team === side);
}
