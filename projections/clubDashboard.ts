import { clubPlayers } from '../src/domain/clubSync.js';
import { CLUB_SYNC_EVENT_TYPES, type ClubSyncEvent, decodeClubSyncEvent, type Side } from '../src/domain/matchEvents.js';
import type { ActionLine, MatchSummary, PlayerLine } from '../src/domain/matchPayload.js';
import { type StatRate, statRates, sumStats } from '../src/domain/statRates.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import type { FieldValue, ReadModelReader } from '../src/readmodel/port.js';
import { type SyncSource, syncSourceBefore } from './clubSyncSource.js';
import type { Projection } from './projection.js';

/**
 * The club dashboard: each club's copy of the matches synced into it (players, stats,
 * score, play-by-play). One document per club and match holds the whole copy, so a
 * re-upload replaces it in one write and nothing is ever counted twice; players and totals
 * are merged from these copies when read.
 *
 * Names that come from payloads (stat names, player ids) are stored as values, never as field
 * names, so that no payload can produce a field a document store refuses (`$x`, `a.b`).
 */
export const CLUB_DASHBOARD = 'clubDashboard';
export const CLUB_MATCHES = 'clubMatches';
export const CLUB_MATCH_ACTIONS = 'clubMatchActions';

/** A stat line as stored: [stat name, value] pairs. */
export type StatPairs = [string, number][];

export interface ClubPlayerCopy {
  key: string;
  /** The side the payload gives the player ('home' / 'away'), so a side settled later can pick its players. */
  team?: string | null;
  playerId: string | null;
  name: string | null;
  number: string | null;
  position: string | null;
  stats: StatPairs;
}

export const statsOf = (pairs: StatPairs): Record<string, number> => Object.fromEntries(pairs);

export interface ClubMatchDoc {
  [field: string]: unknown;
  /** `<clubId>:<matchId>` */
  id: string;
  clubId: string;
  teamId: string;
  matchId: string;
  /** Stream revision of the sync event this copy comes from. */
  revision: number;
  syncedAt: string;
  outcome: 'synced' | 'unauthenticated';
  keyId: string | null;
  side: Side;
  sport: string | null;
  home: MatchSummary['home'];
  away: MatchSummary['away'];
  scoreUnit: MatchSummary['scoreUnit'];
  lines: MatchSummary['lines'];
  startedAt: string | null;
  season: string | null;
  category: string | null;
  competition: string | null;
  players: ClubPlayerCopy[];
  actionCount: number;
}

export interface ClubMatchActionsDoc {
  [field: string]: unknown;
  id: string;
  clubId: string;
  matchId: string;
  revision: number;
  actions: ActionLine[];
  /** [playerId, name] of the payload's players, to show who did what. */
  playerNames: [string, string][];
}

export const clubMatchDocId = (clubId: string, matchId: string) => `${clubId}:${matchId}`;

const copyOf = (player: PlayerLine): ClubPlayerCopy => ({
  key: player.key,
  team: player.team,
  playerId: player.playerId,
  name: player.name,
  number: player.number,
  position: player.position,
  stats: Object.entries(player.stats),
});

type ProcessedSync = Extract<ClubSyncEvent, { type: 'ClubSyncAccepted' | 'ClubSyncUnauthenticated' }>;

/** Pure: the club's copy of a match from its payload and a processed sync outcome. */
export function clubMatchCopy(source: SyncSource, event: ProcessedSync, recorded: Pick<RecordedEvent, 'revision' | 'recordedAt'>) {
  const { summary } = source;
  const { clubId, teamId, matchId, side } = event.data;
  const id = clubMatchDocId(clubId, matchId);
  const match: ClubMatchDoc = {
    id,
    clubId,
    teamId,
    matchId,
    revision: recorded.revision,
    syncedAt: recorded.recordedAt,
    outcome: event.type === 'ClubSyncAccepted' ? 'synced' : 'unauthenticated',
    keyId: event.data.keyId,
    side,
    sport: summary.sport,
    home: summary.home,
    away: summary.away,
    scoreUnit: summary.scoreUnit,
    lines: summary.lines,
    startedAt: summary.startedAt,
    season: summary.season,
    category: summary.category,
    competition: summary.competition,
    // Side unknown: both sides' players, each with its side, so that a side the admin settles picks its own.
    players: clubPlayers(source.players, side).map(copyOf),
    actionCount: summary.actions.length,
  };
  const playerNames = source.players.flatMap((p): [string, string][] => (p.playerId !== null && p.name !== null ? [[p.playerId, p.name]] : []));
  const actions: ClubMatchActionsDoc = { id, clubId, matchId, revision: recorded.revision, actions: summary.actions, playerNames };
  return { match, actions };
}

export const clubDashboardProjection: Projection = {
  name: CLUB_DASHBOARD,
  collections: [CLUB_MATCHES, CLUB_MATCH_ACTIONS],
  indexes: [
    { collection: CLUB_MATCHES, fields: ['clubId', 'startedAt'] },
    { collection: CLUB_MATCHES, fields: ['clubId', 'teamId'] },
  ],
  // A payload naming a club always comes with its sync outcome in the same append.
  changedBy: CLUB_SYNC_EVENT_TYPES,
  async apply(recorded, view, append) {
    const sync = decodeClubSyncEvent(recorded.type, recorded.data);
    if (sync === null || sync.type === 'ClubSyncSkipped') return;
    const source = await syncSourceBefore(recorded, append, view);
    if (source === null) throw new Error(`club sync of match ${sync.data.matchId} at revision ${recorded.revision} has no payload naming a club before it`);
    const { match, actions } = clubMatchCopy(source, sync, recorded);
    view.put(CLUB_MATCHES, match);
    view.put(CLUB_MATCH_ACTIONS, actions);
  },
};

export interface ClubMatchFilter {
  teamId?: string | undefined;
  season?: string | undefined;
  category?: string | undefined;
  competition?: string | undefined;
}

/** The club's matches, newest first (by start time, else sync time). */
export async function readClubMatches(reader: ReadModelReader, clubId: string, filter: ClubMatchFilter = {}): Promise<ClubMatchDoc[]> {
  const where: Record<string, FieldValue> = { clubId };
  for (const field of ['teamId', 'season', 'category', 'competition'] as const) {
    const value = filter[field];
    if (value !== undefined && value !== '') where[field] = value;
  }
  const docs = (await reader.find(CLUB_MATCHES, { where, orderBy: [{ field: 'startedAt', direction: 'desc' }] })) as ClubMatchDoc[];
  return docs.sort((a, b) => (b.startedAt ?? b.syncedAt).localeCompare(a.startedAt ?? a.syncedAt));
}

export async function readClubMatch(reader: ReadModelReader, clubId: string, matchId: string) {
  return (await reader.get(CLUB_MATCHES, clubMatchDocId(clubId, matchId))) as ClubMatchDoc | null;
}

export async function readClubMatchActions(reader: ReadModelReader, clubId: string, matchId: string) {
  return (await reader.get(CLUB_MATCH_ACTIONS, clubMatchDocId(clubId, matchId))) as ClubMatchActionsDoc | null;
}

/** A player of a team, merged over the team's matches by playerId, else number and name. */
export interface ClubPlayer {
  teamId: string;
  key: string;
  playerId: string | null;
  name: string | null;
  number: string | null;
  position: string | null;
  matchesPlayed: number;
}

export interface StatLine {
  matchId: string;
  startedAt: string | null;
  opponent: string | null;
  stats: Record<string, number>;
  rates: StatRate[];
}

export interface PlayerStats extends ClubPlayer {
  totals: Record<string, number>;
  rates: StatRate[];
  lines: StatLine[];
}

/** What the admin decided about the club's matches (club stream): sides settled, matches left out. */
export interface ClubMatchDecisions {
  settledSides: Record<string, 'home' | 'away'>;
  excludedMatches: Record<string, string>;
}

/** A copy as the club sees it now: the side the admin settled wins, and whether it counts in players and stats. */
export function withDecisions(match: ClubMatchDoc, decisions: ClubMatchDecisions): ClubMatchDoc & { counted: boolean; excluded: boolean } {
  const settled = Object.hasOwn(decisions.settledSides, match.matchId) ? (decisions.settledSides[match.matchId] ?? null) : null;
  const side = settled ?? match.side;
  const excluded = Object.hasOwn(decisions.excludedMatches, match.matchId);
  return { ...match, side, players: clubPlayers(match.players, side), excluded, counted: side !== null && !excluded };
}

/**
 * The copies that count in players and stats: side known (by the upload or the admin) and not
 * excluded. A match whose side is unknown counts for neither side until the admin settles it.
 */
export const countedMatches = (matches: ClubMatchDoc[], decisions: ClubMatchDecisions): ClubMatchDoc[] =>
  matches.map((match) => withDecisions(match, decisions)).filter((match) => match.counted);

/** Lines with only a position in their payload's list cannot be matched across matches. */
const mergeKey = (match: ClubMatchDoc, player: ClubPlayerCopy) => `${match.teamId}\0${player.key.startsWith('#') ? `${match.matchId}${player.key}` : player.key}`;

const opponentOf = (match: ClubMatchDoc) => (match.side === 'home' ? match.away.name : match.side === 'away' ? match.home.name : null);

/**
 * Players and their stats merged from match copies (give them newest first: a player's name,
 * number and position are taken from their newest match).
 */
export function playerStatsOf(matches: ClubMatchDoc[]): PlayerStats[] {
  const byKey = new Map<string, PlayerStats>();
  for (const match of matches) {
    for (const player of match.players) {
      const key = mergeKey(match, player);
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = {
          teamId: match.teamId,
          key: player.key,
          playerId: player.playerId,
          name: player.name,
          number: player.number,
          position: player.position,
          matchesPlayed: 0,
          totals: {},
          rates: [],
          lines: [],
        };
        byKey.set(key, entry);
      }
      entry.matchesPlayed += 1;
      const stats = statsOf(player.stats);
      entry.lines.push({ matchId: match.matchId, startedAt: match.startedAt, opponent: opponentOf(match), stats, rates: statRates(stats) });
    }
  }
  return [...byKey.values()]
    .map((entry) => {
      const totals = sumStats(entry.lines.map((line) => line.stats));
      return { ...entry, totals, rates: statRates(totals) };
    })
    .sort((a, b) => a.teamId.localeCompare(b.teamId) || numberOrder(a.number, b.number) || (a.name ?? '').localeCompare(b.name ?? ''));
}

function numberOrder(a: string | null, b: string | null): number {
  const x = a === null ? Number.POSITIVE_INFINITY : Number(a);
  const y = b === null ? Number.POSITIVE_INFINITY : Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return (a ?? '').localeCompare(b ?? '');
  return x === y ? 0 : x < y ? -1 : 1;
}
