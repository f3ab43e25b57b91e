import { sameAppKeyHash, hashAppKey, parseAppKey } from './appKey.js';
import type { ClubEvent } from './clubEvents.js';
import { CLUB_NAME_MAX, nameProblem, TEAM_NAME_MAX } from './clubIds.js';
import { normalTeamName } from './teamName.js';
import { conflict, notFound, validationError } from './errors.js';
import { DEFAULT_PUBLICITY, type TeamPublicity } from './teamPublicity.js';
import { type Fixture, FIXTURE_DETAIL_KEYS, type FixtureDetails, MAX_TEAM_FIXTURES } from './fixtures.js';

/**
 * The club decider: a club, its admin, its teams and its app keys, pure. `decide` applies the
 * rules to a command; `evolve` folds the `club-<clubId>` stream into the state they need.
 */
export interface Team {
  teamId: string;
  name: string;
  /** Other names scoring apps give the team; compared like the name when finding the club's side. */
  aliases: string[];
}

export type SettledSide = 'home' | 'away';

export interface AppKeyRecord {
  keyId: string;
  prefix: string;
  hash: string;
  label: string;
  issuedAt: string;
  revokedAt: string | null;
}

export type ClubState =
  | { exists: false }
  | {
      exists: true;
      clubId: string;
      name: string;
      adminEmail: string;
      passwordHash: string;
      registeredAt: string;
      teams: Team[];
      appKeys: AppKeyRecord[];
      /** Sessions issued at or before this time have ended (the admin logged out). */
      sessionsEndedAt: string | null;
      /** Since when every sync into this club needs a valid app key (null: the global mode decides). */
      appKeyRequiredSince: string | null;
      /** The club's side of matches the admin settled, by match id; later uploads keep it. */
      settledSides: Record<string, SettledSide>;
      /** Matches the admin left out of players and stats, by match id, with when. */
      excludedMatches: Record<string, string>;
      /** Whether the club's public page is on (off until the admin turns it on). */
      publicPage?: boolean;
      /** What the public sees of each team, by team id; a team not here has DEFAULT_PUBLICITY. */
      publicity?: Record<string, TeamPublicity>;
      /** Fixtures announced from the dashboard, by fixture id (cancelled ones stay, marked). */
      fixtures?: Record<string, Fixture>;
    };

export type ExistingClub = Extract<ClubState, { exists: true }>;

export const initialClubState = (): ClubState => ({ exists: false });

/** Most keys a club may have active at once: enough for rotation and several devices. */
export const MAX_ACTIVE_APP_KEYS = 20;
const APP_KEY_LABEL_MAX = 60;
/** Enough for the names one team goes by across apps and seasons. */
export const MAX_TEAM_ALIASES = 10;

export type ClubCommand =
  | {
      type: 'RegisterClub';
      clubId: string;
      name: string;
      adminEmail: string;
      passwordHash: string;
      teams: { teamId: string; name: string }[];
      at: string;
    }
  | { type: 'AddTeam'; teamId: string; name: string }
  | { type: 'SetTeamAliases'; teamId: string; aliases: string[] }
  | { type: 'SetAppKeyRequirement'; required: boolean; at: string }
  | {
      type: 'SettleMatchSide';
      matchId: string;
      side: SettledSide;
      at: string;
      /** "Remember this name": the chosen side's name in the upload, kept as an alias of the match's team so later uploads are matched. */
      remember?: { teamId: string; name: string };
    }
  | { type: 'ExcludeMatch'; matchId: string; at: string }
  | { type: 'IncludeMatch'; matchId: string; at: string }
  | { type: 'RenameTeam'; teamId: string; name: string }
  | { type: 'IssueAppKey'; keyId: string; prefix: string; hash: string; label: string; at: string }
  | { type: 'RevokeAppKey'; keyId: string; at: string }
  | { type: 'EndAdminSessions'; at: string }
  | { type: 'SetClubPublicPage'; publicPage: boolean; at: string }
  | ({ type: 'SetTeamPublicity'; teamId: string; at: string } & TeamPublicity)
  /** One or many (a CSV import): all are announced or none. */
  | { type: 'AnnounceFixtures'; teamId: string; fixtures: { fixtureId: string; details: FixtureDetails }[]; at: string }
  | { type: 'ChangeFixture'; teamId: string; fixtureId: string; details: FixtureDetails; at: string }
  | { type: 'CancelFixture'; teamId: string; fixtureId: string; at: string };

function checkedName(what: string, name: string, max: number): string {
  const trimmed = name.trim();
  const problem = nameProblem(what, trimmed, max);
  if (problem !== null) throw validationError(problem);
  return trimmed;
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

function checkedTeamName(club: ExistingClub, name: string, except: string | null): string {
  const trimmed = checkedName('the team name', name, TEAM_NAME_MAX);
  if (club.teams.some((team) => team.teamId !== except && sameName(team.name, trimmed))) {
    throw validationError(`the club already has a team named "${trimmed}"; choose another name`);
  }
  return trimmed;
}

export function decideClub(command: ClubCommand, state: ClubState): ClubEvent[] {
  if (command.type === 'RegisterClub') {
    if (state.exists) throw conflict(`club ${command.clubId} already exists`);
    const name = checkedName('the club name', command.name, CLUB_NAME_MAX);
    const events: ClubEvent[] = [
      {
        type: 'ClubRegistered',
        data: { clubId: command.clubId, name, adminEmail: command.adminEmail, passwordHash: command.passwordHash, registeredAt: command.at },
      },
    ];
    const teams: Team[] = [];
    for (const team of command.teams) {
      const teamName = checkedName('the team name', team.name, TEAM_NAME_MAX);
      if (teams.some((t) => sameName(t.name, teamName))) throw validationError(`the team name "${teamName}" is given twice`);
      teams.push({ teamId: team.teamId, name: teamName, aliases: [] });
      events.push({ type: 'TeamAdded', data: { teamId: team.teamId, name: teamName } });
    }
    return events;
  }
  if (!state.exists) throw notFound('no such club');
  switch (command.type) {
    case 'AddTeam': {
      if (state.teams.some((team) => team.teamId === command.teamId)) throw conflict(`team ${command.teamId} already exists`);
      return [{ type: 'TeamAdded', data: { teamId: command.teamId, name: checkedTeamName(state, command.name, null) } }];
    }
    case 'RenameTeam': {
      const team = state.teams.find((t) => t.teamId === command.teamId);
      if (!team) throw notFound(`the club has no team ${command.teamId}`);
      const name = checkedTeamName(state, command.name, team.teamId);
      return name === team.name ? [] : [{ type: 'TeamRenamed', data: { teamId: team.teamId, name } }];
    }
    case 'IssueAppKey': {
      if (state.appKeys.some((key) => key.keyId === command.keyId)) throw conflict(`app key ${command.keyId} already exists`);
      if (state.appKeys.filter((key) => key.revokedAt === null).length >= MAX_ACTIVE_APP_KEYS) {
        throw validationError(`the club already has ${MAX_ACTIVE_APP_KEYS} active app keys; revoke one before generating another`);
      }
      const label = command.label.trim();
      if (label !== '') checkedName('the key label', label, APP_KEY_LABEL_MAX);
      const { keyId, prefix, hash, at } = command;
      return [{ type: 'AppKeyIssued', data: { keyId, prefix, hash, label, issuedAt: at } }];
    }
    case 'RevokeAppKey': {
      const key = state.appKeys.find((k) => k.keyId === command.keyId);
      if (!key) throw notFound(`the club has no app key ${command.keyId}`);
      // Revoking twice changes nothing: the first revocation stands.
      return key.revokedAt !== null ? [] : [{ type: 'AppKeyRevoked', data: { keyId: key.keyId, revokedAt: command.at } }];
    }
    case 'EndAdminSessions':
      return [{ type: 'AdminLoggedOut', data: { at: command.at } }];
    case 'SetTeamAliases': {
      const team = state.teams.find((t) => t.teamId === command.teamId);
      if (!team) throw notFound(`the club has no team ${command.teamId}`);
      const aliases = checkedAliases(command.aliases);
      const same = aliases.length === team.aliases.length && aliases.every((alias, i) => alias === team.aliases[i]);
      return same ? [] : [{ type: 'TeamAliasesSet', data: { teamId: team.teamId, aliases } }];
    }
    case 'SetAppKeyRequirement':
      // Setting what is already set changes nothing, so "since" keeps the first time.
      return (state.appKeyRequiredSince !== null) === command.required
        ? []
        : [{ type: 'AppKeyRequirementSet', data: { required: command.required, at: command.at } }];
    case 'SettleMatchSide': {
      const settled: ClubEvent[] =
        state.settledSides[command.matchId] === command.side
          ? []
          : [{ type: 'MatchSideSettled', data: { matchId: command.matchId, side: command.side, at: command.at } }];
      const { remember } = command;
      const team = remember === undefined ? undefined : state.teams.find((t) => t.teamId === remember.teamId);
      if (remember === undefined || team === undefined || nameToRemember(state, team, remember.name) !== 'new') return settled;
      return [...settled, { type: 'TeamAliasesSet', data: { teamId: team.teamId, aliases: [...team.aliases, remember.name.trim()] } }];
    }
    case 'ExcludeMatch':
      return Object.hasOwn(state.excludedMatches, command.matchId) ? [] : [{ type: 'MatchExcluded', data: { matchId: command.matchId, at: command.at } }];
    case 'IncludeMatch':
      return Object.hasOwn(state.excludedMatches, command.matchId) ? [{ type: 'MatchIncluded', data: { matchId: command.matchId, at: command.at } }] : [];
    case 'SetClubPublicPage':
      return (state.publicPage ?? false) === command.publicPage
        ? []
        : [{ type: 'ClubPublicPageSet', data: { publicPage: command.publicPage, at: command.at } }];
    case 'SetTeamPublicity': {
      const { at, teamId, publicPage, privacy, roster, indexing } = command;
      if (!state.teams.some((team) => team.teamId === teamId)) throw notFound(`the club has no team ${teamId}`);
      const now = teamPublicity(state, teamId);
      // Setting what is already set changes nothing.
      const same = now.publicPage === publicPage && now.privacy === privacy && now.roster === roster && now.indexing === indexing;
      return same ? [] : [{ type: 'TeamPublicitySet', data: { teamId, publicPage, privacy, roster, indexing, at } }];
    }
    case 'AnnounceFixtures': {
      const { teamId, at } = command;
      if (!state.teams.some((team) => team.teamId === teamId)) throw notFound(`the club has no team ${teamId}`);
      const active = teamFixtures(state, teamId).filter((f) => !f.cancelled).length;
      if (active + command.fixtures.length > MAX_TEAM_FIXTURES) {
        throw validationError(`a team has at most ${MAX_TEAM_FIXTURES} fixtures announced; it has ${active}: cancel past ones or import fewer`);
      }
      return command.fixtures.map(({ fixtureId, details }) => {
        if (state.fixtures?.[fixtureId] !== undefined) throw conflict(`fixture ${fixtureId} already exists`);
        return { type: 'FixtureAnnounced', data: { fixtureId, teamId, ...details, at } };
      });
    }
    case 'ChangeFixture': {
      const fixture = liveFixture(state, command.teamId, command.fixtureId);
      const { details } = command;
      const same = FIXTURE_DETAIL_KEYS.every((key) => fixture[key] === details[key]);
      return same ? [] : [{ type: 'FixtureChanged', data: { fixtureId: fixture.fixtureId, ...details, at: command.at } }];
    }
    case 'CancelFixture': {
      const fixture = liveFixture(state, command.teamId, command.fixtureId);
      return [{ type: 'FixtureCancelled', data: { fixtureId: fixture.fixtureId, at: command.at } }];
    }
  }
}

/** A team's fixtures, soonest first. */
export const teamFixtures = (club: ExistingClub, teamId: string): Fixture[] =>
  Object.values(club.fixtures ?? {})
    .filter((f) => f.teamId === teamId)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));

function liveFixture(club: ExistingClub, teamId: string, fixtureId: string): Fixture {
  const fixture = club.fixtures?.[fixtureId];
  if (fixture === undefined || fixture.teamId !== teamId) throw notFound(`the team has no fixture ${fixtureId}`);
  if (fixture.cancelled) throw validationError('this fixture is cancelled; announce a new one instead');
  return fixture;
}

/** What the public sees of a team: as last set, else DEFAULT_PUBLICITY. */
export const teamPublicity = (club: ExistingClub, teamId: string): TeamPublicity => club.publicity?.[teamId] ?? DEFAULT_PUBLICITY;

/**
 * The names that find a team's side of a match (compared by normalTeamName): its name, its
 * aliases, and the club's name alone or followed by the team's ("Lakeside Volleyball Club U18
 * Girls"), as scoring apps often write them. The teamId already says which team; a name only
 * says which side, and a match whose two sides both answer stays "side unknown".
 */
export const namesOfTeam = (club: ExistingClub, team: Team): string[] => [team.name, ...team.aliases, `${club.name} ${team.name}`, club.name];

/**
 * Whether a side's name can be remembered as an alias of the team: `known` when it already finds
 * the team, `full` when the team has MAX_TEAM_ALIASES, `invalid` when it is no valid team name.
 */
export function nameToRemember(club: ExistingClub, team: Team, name: string): 'new' | 'known' | 'full' | 'invalid' {
  const trimmed = name.trim();
  if (nameProblem('an alias', trimmed, TEAM_NAME_MAX) !== null || normalTeamName(trimmed) === '') return 'invalid';
  const normal = normalTeamName(trimmed);
  if (namesOfTeam(club, team).some((known) => normalTeamName(known) === normal)) return 'known';
  return team.aliases.length >= MAX_TEAM_ALIASES ? 'full' : 'new';
}

/** Aliases trimmed, checked like team names, blank ones dropped, duplicates (by normal form) once. */
function checkedAliases(given: string[]): string[] {
  const aliases: string[] = [];
  for (const raw of given) {
    if (raw.trim() === '') continue;
    const alias = checkedName('an alias', raw, TEAM_NAME_MAX);
    if (!aliases.some((a) => sameName(a, alias))) aliases.push(alias);
  }
  if (aliases.length > MAX_TEAM_ALIASES) throw validationError(`a team has at most ${MAX_TEAM_ALIASES} aliases; remove some`);
  return aliases;
}

export function evolveClub(state: ClubState, event: ClubEvent): ClubState {
  if (event.type === 'ClubRegistered') {
    const { clubId, name, adminEmail, passwordHash, registeredAt } = event.data;
    return {
      exists: true,
      clubId,
      name,
      adminEmail,
      passwordHash,
      registeredAt,
      teams: [],
      appKeys: [],
      sessionsEndedAt: null,
      appKeyRequiredSince: null,
      settledSides: {},
      excludedMatches: {},
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'TeamAdded':
      return { ...state, teams: [...state.teams, { teamId: event.data.teamId, name: event.data.name, aliases: [] }] };
    case 'TeamRenamed':
      return { ...state, teams: state.teams.map((team) => (team.teamId === event.data.teamId ? { ...team, name: event.data.name } : team)) };
    case 'AppKeyIssued':
      return { ...state, appKeys: [...state.appKeys, { ...event.data, revokedAt: null }] };
    case 'AppKeyRevoked':
      return { ...state, appKeys: state.appKeys.map((key) => (key.keyId === event.data.keyId ? { ...key, revokedAt: event.data.revokedAt } : key)) };
    case 'AdminLoggedOut':
      return { ...state, sessionsEndedAt: event.data.at };
    case 'TeamAliasesSet':
      return { ...state, teams: state.teams.map((team) => (team.teamId === event.data.teamId ? { ...team, aliases: event.data.aliases } : team)) };
    case 'AppKeyRequirementSet':
      return { ...state, appKeyRequiredSince: event.data.required ? event.data.at : null };
    case 'MatchSideSettled':
      return { ...state, settledSides: { ...state.settledSides, [event.data.matchId]: event.data.side } };
    case 'MatchExcluded':
      return { ...state, excludedMatches: { ...state.excludedMatches, [event.data.matchId]: event.data.at } };
    case 'MatchIncluded': {
      const { [event.data.matchId]: _included, ...excludedMatches } = state.excludedMatches;
      return { ...state, excludedMatches };
    }
    case 'ClubPublicPageSet':
      return { ...state, publicPage: event.data.publicPage };
    case 'TeamPublicitySet': {
      const { teamId, publicPage, privacy, roster, indexing } = event.data;
      return { ...state, publicity: { ...state.publicity, [teamId]: { publicPage, privacy, roster, indexing } } };
    }
    case 'FixtureAnnounced': {
      const { at, ...fixture } = event.data;
      return { ...state, fixtures: { ...state.fixtures, [fixture.fixtureId]: { ...fixture, sequence: 0, cancelled: false, changedAt: at } } };
    }
    case 'FixtureChanged':
    case 'FixtureCancelled': {
      const before = state.fixtures?.[event.data.fixtureId];
      if (before === undefined) return state;
      const { at, ...change } = event.data;
      const after: Fixture = { ...before, ...change, sequence: before.sequence + 1, changedAt: at, cancelled: event.type === 'FixtureCancelled' };
      return { ...state, fixtures: { ...state.fixtures, [before.fixtureId]: after } };
    }
  }
}

/** Why a presented app key does not authenticate a sync for this club. */
type AppKeyProblem = 'missing_key' | 'malformed_key' | 'unknown_key' | 'wrong_key' | 'revoked_key';

export type AppKeyVerdict = { valid: true; keyId: string } | { valid: false; problem: AppKeyProblem; keyId: string | null };

/**
 * Checks an `X-App-Key` value against the club's keys as they are now (a revoked key fails
 * from the moment its revocation is in the stream). A key of another club is an unknown key here.
 */
export function verifyAppKey(club: ExistingClub, presented: string | null): AppKeyVerdict {
  if (presented === null || presented === '') return { valid: false, problem: 'missing_key', keyId: null };
  const parsed = parseAppKey(presented.trim());
  if (parsed === null) return { valid: false, problem: 'malformed_key', keyId: null };
  const record = club.appKeys.find((key) => key.keyId === parsed.keyId);
  if (!record) return { valid: false, problem: 'unknown_key', keyId: null };
  if (!sameAppKeyHash(record.hash, hashAppKey(presented.trim()))) return { valid: false, problem: 'wrong_key', keyId: record.keyId };
  if (record.revokedAt !== null) return { valid: false, problem: 'revoked_key', keyId: record.keyId };
  return { valid: true, keyId: record.keyId };
}
