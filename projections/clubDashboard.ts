import { clubPlayers } from '../src/domain/clubSync.js';
import { CLUB_SYNC_EVENT_TYPES, type ClubSyncEvent, decodeClubSyncEvent, decodeMatchEvent, type Side } from '../src/domain/matchEvents.js';
import { matchStreamId } from '../src/domain/matchId.js';
import { type ActionLine, type MatchSummary, summarizeMatch } from '../src/domain/matchPayload.js';
import { type StatRate, statRates, sumStats } from '../src/domain/statRates.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import { type FieldValue, type ReadModelReader, collectionOf } from '../src/readmodel/readModel.js';
import { type SourcePlayer, type SyncSource, syncContentBefore, syncSourceBefore } from './clubSyncSource.js';
import { clubIdOfStream } from '../src/domain/clubIds.js';
import { type ClubEvent, decodeClubEvent } from '../src/domain/clubEvents.js';
import { CLUB_SEASON_TOTALS, countCopy, countedPlayers, playerMergeKey } from './clubSeasonTotals.js';
import { type EventLog, type Projection, type ProjectionView, readEventAt } from './projection.js';

/**
 * The club dashboard: each club's copy of the matches synced into it (players, stats,
 * score, play-by-play), one document per club and match, and the players' season totals
 * (./clubSeasonTotals.ts). A re-upload replaces the copy and swaps its lines in the totals,
 * so nothing is counted twice. The admin's decisions in the club's stream (the side of a
 * match, excluded matches) change the copy and the totals the same way, so a rebuild gives
 * the same numbers.
 *
 * Names that come from payloads (stat names, player ids) are stored as values, never as field
 * names, so that no payload can produce a field a document store refuses (`$x`, `a.b`).
 */
export const CLUB_DASHBOARD = 'clubDashboard';
export const CLUB_MATCHES = collectionOf<ClubMatchDoc>('clubMatches');

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
  /** Every player of the payload with their side; the club's are those of `side` (countedPlayers). */
  players: ClubPlayerCopy[];
  actionCount: number;
  /** Left out of players and stats by the admin. */
  excluded: boolean;
}

/**
 * The play-by-play of a club's copy of a match. Not copied into the read model: it is read from
 * the payload in the log when the match's page is shown (the payload is stored once).
 */
export interface ClubMatchActions {
  actions: ActionLine[];
  /** [playerId, name] of the payload's players, to show who did what. */
  playerNames: [string, string][];
}

export const clubMatchDocId = (clubId: string, matchId: string) => `${clubId}:${matchId}`;

const copyOf = (player: SourcePlayer): ClubPlayerCopy => ({
  key: player.key,
  team: player.team,
  playerId: player.playerId,
  name: player.name,
  number: player.number,
  position: player.position,
  stats: player.stats,
});

type ProcessedSync = Extract<ClubSyncEvent, { type: 'ClubSyncAccepted' | 'ClubSyncUnauthenticated' }>;

/** Pure: the club's copy of a match from its payload and a processed sync outcome. */
export function clubMatchCopy(source: SyncSource, event: ProcessedSync, recorded: Pick<RecordedEvent, 'revision' | 'recordedAt'>, excluded = false) {
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
    // Both sides, each player with its side: a side the admin settles or corrects later picks its own.
    players: source.players.map(copyOf),
    actionCount: summary.actionCount,
    excluded,
  };
  return match;
}

/** Club events that change a match copy: the admin's decisions about it. */
const DECISION_EVENT_TYPES = ['MatchSideSettled', 'MatchExcluded', 'MatchIncluded'] as const;

/** Pure: the copy after one of the admin's decisions. */
export function decidedCopy(copy: ClubMatchDoc, decision: ClubEvent): ClubMatchDoc {
  switch (decision.type) {
    case 'MatchSideSettled':
      return { ...copy, side: decision.data.side };
    case 'MatchExcluded':
      return { ...copy, excluded: true };
    case 'MatchIncluded':
      return { ...copy, excluded: false };
    default:
      return copy;
  }
}

/** Puts a copy in place of the one stored, moving its players' lines in the season totals. */
async function replaceCopy(view: ProjectionView, current: ClubMatchDoc | null, next: ClubMatchDoc) {
  if (current !== null) await countCopy(view, current, -1);
  await countCopy(view, next, 1);
  view.put(CLUB_MATCHES, next);
}

export const clubDashboardProjection: Projection = {
  name: CLUB_DASHBOARD,
  collections: [CLUB_MATCHES, CLUB_SEASON_TOTALS],
  indexes: [
    { collection: CLUB_MATCHES, fields: ['clubId', 'startedAt'] },
    { collection: CLUB_MATCHES, fields: ['clubId', 'teamId'] },
    { collection: CLUB_SEASON_TOTALS, fields: ['clubId', 'teamId'] },
  ],
  // A payload naming a club always comes with its sync outcome in the same append.
  changedBy: [...CLUB_SYNC_EVENT_TYPES, ...DECISION_EVENT_TYPES],
  async apply(recorded, view, append) {
    const clubId = clubIdOfStream(recorded.streamId);
    if (clubId !== null) {
      const decision = (DECISION_EVENT_TYPES as readonly string[]).includes(recorded.type) ? decodeClubEvent(recorded.type, recorded.data) : null;
      if (decision === null || !('matchId' in decision.data)) return;
      const current = await view.get(CLUB_MATCHES, clubMatchDocId(clubId, decision.data.matchId));
      // The dashboard offers decisions only on synced matches; one about another match changes nothing.
      if (current !== null) await replaceCopy(view, current, decidedCopy(current, decision));
      return;
    }
    const sync = decodeClubSyncEvent(recorded.type, recorded.data);
    if (sync === null || sync.type === 'ClubSyncSkipped') return;
    const source = await syncSourceBefore(recorded, append, view);
    if (source === null) throw new Error(`club sync of match ${sync.data.matchId} at revision ${recorded.revision} has no payload naming a club before it`);
    const current = await view.get(CLUB_MATCHES, clubMatchDocId(sync.data.clubId, sync.data.matchId));
    // A re-upload keeps the admin's exclusion; its side comes from the upload, which keeps a settled side.
    await replaceCopy(view, current, clubMatchCopy(source, sync, recorded, current?.excluded === true));
  },
};

export interface ClubMatchFilter {
  teamId?: string | undefined;
  /** null: the matches whose side is unknown. */
  side?: Side;
  season?: string | undefined;
  category?: string | undefined;
  competition?: string | undefined;
}

/** The club's matches, newest first (by start time, then sync time), a page at a time when asked. */
export async function readClubMatches(reader: ReadModelReader, clubId: string, filter: ClubMatchFilter = {}, page: { limit?: number; offset?: number } = {}): Promise<ClubMatchDoc[]> {
  return await reader.find(CLUB_MATCHES, {
    where: matchWhere(clubId, filter),
    orderBy: [
      { field: 'startedAt', direction: 'desc' },
      { field: 'syncedAt', direction: 'desc' },
    ],
    ...page,
  });
}

export const countClubMatches = (reader: ReadModelReader, clubId: string, filter: ClubMatchFilter = {}) => reader.count(CLUB_MATCHES, matchWhere(clubId, filter));

function matchWhere(clubId: string, filter: ClubMatchFilter): Record<string, FieldValue> {
  const where: Record<string, FieldValue> = { clubId };
  for (const field of ['teamId', 'season', 'category', 'competition'] as const) {
    const value = filter[field];
    if (value !== undefined && value !== '') where[field] = value;
  }
  if (filter.side !== undefined) where.side = filter.side;
  return where;
}

export async function readClubMatch(reader: ReadModelReader, clubId: string, matchId: string) {
  return await reader.get(CLUB_MATCHES, clubMatchDocId(clubId, matchId));
}

/** The play-by-play of a club's copy, from the payload its sync outcome followed (read from the log). */
export async function readClubMatchActions(log: EventLog, match: Pick<ClubMatchDoc, 'matchId' | 'revision'>): Promise<ClubMatchActions | null> {
  const outcome = { streamId: matchStreamId(match.matchId), revision: match.revision };
  const content = await syncContentBefore(outcome, [], { readEvent: (streamId, revision) => readEventAt(log, streamId, revision) });
  const matchEvent = content === null ? null : decodeMatchEvent(content.type, content.data);
  if (matchEvent === null) return null;
  const summary = summarizeMatch(JSON.parse(matchEvent.data.payload));
  const playerNames = summary.players.flatMap((p): [string, string][] => (p.playerId !== null && p.name !== null ? [[p.playerId, p.name]] : []));
  return { actions: summary.actions(), playerNames };
}

/** One match of a player, as the player's page lists it. */
export interface PlayerMatchLine {
  matchId: string;
  startedAt: string | null;
  opponent: string | null;
  stats: Record<string, number>;
}

const opponentOf = (match: ClubMatchDoc) => (match.side === 'home' ? match.away.name : match.side === 'away' ? match.home.name : null);

/** The player's line in each of these copies where they count for the club (merge key as in the season totals). */
export function playerLinesOf(matches: ClubMatchDoc[], key: string): PlayerMatchLine[] {
  return matches.flatMap((match) =>
    countedPlayers(match)
      .filter((player) => playerMergeKey(match.matchId, player.key) === key)
      .map((player) => ({ matchId: match.matchId, startedAt: match.startedAt, opponent: opponentOf(match), stats: statsOf(player.stats) })),
  );
}
