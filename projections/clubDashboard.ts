import { clubPlayers } from '../src/domain/clubSync.js';
import { CLUB_SYNC_EVENT_TYPES, type ClubSyncEvent, decodeClubSyncEvent, decodeMatchErased, decodeMatchEvent, type Side } from '../src/domain/matchEvents.js';
import { matchStreamId } from '../src/domain/matchId.js';
import { type ActionLine, type MatchSummary, type PlayerLine, summarizeMatch } from '../src/domain/matchPayload.js';
import { statValue } from '../src/domain/statRates.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import { type FieldValue, type ReadModelReader, collectionOf } from '../src/readmodel/readModel.js';
import { erasedContentBefore, syncContentBefore, syncSourceBefore, trackedPlayers } from './clubSyncSource.js';
import type { SyncSource } from './syncSource.js';
import { clubIdOfStream } from '../src/domain/clubIds.js';
import { type ClubEvent, decodeClubEvent } from '../src/domain/clubEvents.js';
import { CLUB_SEASON_TOTALS, countCopy, countedPlayers, playerMergeKey } from './clubSeasonTotals.js';
import { defineProjection, type EventLog, type ProjectionView, readEventAt } from './projection.js';
import { isOneOf } from '../src/platform/oneOf.js';

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
const CLUB_DASHBOARD = 'clubDashboard';
const CLUB_MATCHES = collectionOf<ClubMatchDoc>('clubMatches');

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
  /**
   * The club's players: those of `side` (all of them when the payload does not say players'
   * sides), none while the side is unknown. The opponent's stay in the payload, in the log.
   * (Copies made before this kept both sides; countedPlayers picks the club's from either.)
   */
  players: ClubPlayerCopy[];
  actionCount: number;
  /** Left out of players and stats by the admin. */
  excluded: boolean;
  /** The payload's state (scheduled, live, final) and venue, for the public team pages (absent on copies made before them). */
  status?: MatchSummary['status'];
  venue?: string | null;
}

/**
 * What the club's match page shows that is not copied into the read model: it is read from the
 * payload in the log when the page is shown (the payload is stored once).
 */
export interface ClubMatchFromLog {
  /** The play-by-play. */
  actions: ActionLine[];
  /** [playerId, name] of the payload's players, to show who did what. */
  playerNames: [string, string][];
  /** Both sides' players, each with its side, as a copy keeps them: for a match whose side is unknown. */
  players: ClubPlayerCopy[];
}

const clubMatchDocId = (clubId: string, matchId: string) => `${clubId}:${matchId}`;

/** The sync outcome a copy was made from, in its match's stream. */
const copyOutcome = (copy: Pick<ClubMatchDoc, 'matchId' | 'revision'>) => ({ streamId: matchStreamId(copy.matchId), revision: copy.revision });

/** A player as a copy keeps them: each tracked stat a [name, value] pair, 0 where the payload has none. */
const copyOf = (player: PlayerLine, tracked: string[]): ClubPlayerCopy => ({
  key: player.key,
  team: player.team,
  playerId: player.playerId,
  name: player.name,
  number: player.number,
  position: player.position,
  stats: tracked.map((name): [string, number] => [name, statValue(player.stats, name)]),
});

/** The players a copy keeps: the club's side's; none while the side is unknown. */
const keptPlayers = ({ players, tracked }: Pick<SyncSource, 'players' | 'tracked'>, side: Side): ClubPlayerCopy[] =>
  side === null ? [] : clubPlayers(players, side).map((player) => copyOf(player, tracked));

type ProcessedSync = Extract<ClubSyncEvent, { type: 'ClubSyncAccepted' | 'ClubSyncUnauthenticated' }>;

/** Pure: the club's copy of a match from its payload and a processed sync outcome. */
function clubMatchCopy(source: SyncSource, event: ProcessedSync, recorded: Pick<RecordedEvent, 'revision' | 'recordedAt'>, excluded = false) {
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
    players: keptPlayers(source, side),
    actionCount: summary.actionCount,
    excluded,
    status: summary.status ?? null,
    venue: summary.venue ?? null,
  };
  return match;
}

/** Club events that change a match copy: the admin's decisions about it. */
const DECISION_EVENT_TYPES = ['MatchSideSettled', 'MatchExcluded', 'MatchIncluded'] as const;

/**
 * Pure: the copy after one of the admin's decisions. A settled side takes its players from the
 * payload the copy was made from (`source`, read from the log), as a sync with that side would.
 */
function decidedCopy(copy: ClubMatchDoc, decision: ClubEvent, source: SyncSource | null): ClubMatchDoc {
  switch (decision.type) {
    case 'MatchSideSettled':
      if (source === null) throw new Error(`the side of match ${copy.matchId} was settled without the payload its copy was made from`);
      return { ...copy, side: decision.data.side, players: keptPlayers(source, decision.data.side) };
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

export const clubDashboardProjection = defineProjection({
  name: CLUB_DASHBOARD,
  collections: [CLUB_MATCHES, CLUB_SEASON_TOTALS],
  indexes: [
    { collection: CLUB_MATCHES, fields: ['clubId', 'startedAt'] },
    { collection: CLUB_MATCHES, fields: ['clubId', 'teamId'] },
    { collection: CLUB_SEASON_TOTALS, fields: ['clubId', 'teamId'] },
  ],
  // A payload naming a club always comes with its sync outcome in the same append.
  canHandle: [...CLUB_SYNC_EVENT_TYPES, ...DECISION_EVENT_TYPES, 'MatchErased'],
  changedBy: [...CLUB_SYNC_EVENT_TYPES, ...DECISION_EVENT_TYPES, 'MatchErased'],
  async apply(recorded, view, append) {
    const erasure = decodeMatchErased(recorded.type, recorded.data);
    if (erasure !== null) {
      // Each club's copy of the match leaves the totals and the dashboard, as if it had never been synced.
      for (const clubId of new Set(erasure.data.syncs.map((sync) => sync.clubId))) {
        const copy = await view.get(CLUB_MATCHES, clubMatchDocId(clubId, erasure.data.matchId));
        if (copy === null) continue;
        await countCopy(view, copy, -1);
        view.delete(CLUB_MATCHES, copy.id);
      }
      return;
    }
    const clubId = clubIdOfStream(recorded.streamId);
    if (clubId !== null) {
      const decision = isOneOf(DECISION_EVENT_TYPES, recorded.type) ? decodeClubEvent(recorded.type, recorded.data) : null;
      if (decision === null || !('matchId' in decision.data) || decision.data.matchId === null) return;
      const current = await view.get(CLUB_MATCHES, clubMatchDocId(clubId, decision.data.matchId));
      // The dashboard offers decisions only on synced matches; one about another match changes nothing.
      if (current === null) return;
      const source = decision.type === 'MatchSideSettled' ? await syncSourceBefore(copyOutcome(current), [], view) : null;
      await replaceCopy(view, current, decidedCopy(current, decision, source));
      return;
    }
    const sync = decodeClubSyncEvent(recorded.type, recorded.data);
    if (sync === null || sync.type === 'ClubSyncSkipped') return;
    const source = await syncSourceBefore(recorded, append, view);
    if (source === null && (await erasedContentBefore(recorded, append, view))) return;
    if (source === null) throw new Error(`club sync of match ${sync.data.matchId} at revision ${recorded.revision} has no payload naming a club before it`);
    // A match's first version (revision 0) has no copy to replace: a copy comes only from a sync of the match.
    const current = recorded.revision === 1 ? null : await view.get(CLUB_MATCHES, clubMatchDocId(sync.data.clubId, sync.data.matchId));
    // A re-upload keeps the admin's exclusion; its side comes from the upload, which keeps a settled side.
    await replaceCopy(view, current, clubMatchCopy(source, sync, recorded, current?.excluded === true));
  },
});

export interface ClubMatchFilter {
  teamId?: string | undefined;
  /** null: the matches whose side is unknown. */
  side?: Side;
  season?: string | undefined;
  category?: string | undefined;
  competition?: string | undefined;
}

/** The club's matches, newest first (by start time, then sync time), a page at a time when asked. */
export async function readClubMatches(
  reader: ReadModelReader,
  clubId: string,
  filter: ClubMatchFilter = {},
  page: { limit?: number; offset?: number } = {},
): Promise<ClubMatchDoc[]> {
  return await reader.find(CLUB_MATCHES, {
    where: matchWhere(clubId, filter),
    orderBy: [
      { field: 'startedAt', direction: 'desc' },
      { field: 'syncedAt', direction: 'desc' },
    ],
    ...page,
  });
}

export const countClubMatches = (reader: ReadModelReader, clubId: string, filter: ClubMatchFilter = {}) =>
  reader.count(CLUB_MATCHES, matchWhere(clubId, filter));

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

/** What a club's match page reads from the payload its copy's sync outcome followed (in the log). */
export async function readClubMatchFromLog(log: EventLog, match: Pick<ClubMatchDoc, 'matchId' | 'revision'>): Promise<ClubMatchFromLog | null> {
  const content = await syncContentBefore(copyOutcome(match), [], { readEvent: (streamId, revision) => readEventAt(log, streamId, revision) });
  const matchEvent = content === null ? null : decodeMatchEvent(content.type, content.data);
  if (matchEvent === null) return null;
  const summary = summarizeMatch(JSON.parse(matchEvent.data.payload));
  const playerNames = summary.players.flatMap((p): [string, string][] => (p.playerId !== null && p.name !== null ? [[p.playerId, p.name]] : []));
  const { players, tracked } = trackedPlayers(summary.players);
  return { actions: summary.actions(), playerNames, players: players.map((player) => copyOf(player, tracked)) };
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
