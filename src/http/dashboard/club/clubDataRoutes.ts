import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import type { EventLog } from '../../../../projections/projection.js';
import { countClubMatches, playerLinesOf, readClubMatches, readClubMatchFromLog } from '../../../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals, seasonOptions } from '../../../../projections/clubSeasonTotals.js';
import { readSyncLog, type SyncOutcome } from '../../../../projections/syncStatus.js';
import { notFound } from '../../../domain/errors.js';
import { suggestedDialect } from '../csvDialect.js';
import { renderHomePage, renderMatchesPage, renderMatchPage } from '../views/clubDataPages.js';
import { query } from '../views/frame.js';
import { renderPlayerPage, renderPlayersPage, renderStatsPage } from '../views/playerPages.js';
import { clubOf, doneMessage, filterOf, frame, HTML, syncedMatch, teamNameOf, teamOf } from './clubPage.js';
import { MatchesQuery, MatchParams, PlayerQuery, StatsQuery, TeamQuery } from './clubDataSchemas.js';
import { Done } from './clubPageSchemas.js';

export interface ClubDataRoutesDeps {
  readModel: ReadModelReader;
  /** The log, for what is read from a payload rather than copied (a match's play-by-play). */
  eventStore: EventLog;
  matchUrl: (matchId: string) => string;
}

/** Matches and players' lines are listed this many at a time: no page grows with the club. */
const PAGE_SIZE = 50;

/** The club's data: the overview, players, stats, a player's lines, the matches and one match. */
export const clubDataRoutes: FastifyPluginAsyncTypebox<ClubDataRoutesDeps> = async (app, { readModel, eventStore, matchUrl }) => {
  app.get('/', { schema: { querystring: Done } }, async (request, reply) => {
    const club = clubOf(request);
    const newestOf = async (outcome?: SyncOutcome) => (await readSyncLog(readModel, club.clubId, { outcome, limit: 1 })).rows[0] ?? null;
    const [latest, synced, flagged] = await Promise.all([newestOf(), newestOf('synced'), newestOf('unauthenticated')]);
    const lastCopied = synced === null || (flagged !== null && flagged.position > synced.position) ? flagged : synced;
    return reply.type(HTML).send(
      renderHomePage(frame(request, reply, 'home'), {
        clubId: club.clubId,
        teams: club.teams,
        matches: await countClubMatches(readModel, club.clubId),
        sideUnknown: await countClubMatches(readModel, club.clubId, { side: null }),
        players: playerTotalsOf(await readSeasonTotals(readModel, club.clubId)).length,
        lastCopied,
        latestAttempt: latest,
        info: doneMessage(request.query.done),
      }),
    );
  });

  app.get('/players', { schema: { querystring: TeamQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const teamId = teamOf(club, request.query.team);
    const players = playerTotalsOf(await readSeasonTotals(readModel, club.clubId, { teamId }));
    return reply.type(HTML).send(renderPlayersPage(frame(request, reply, 'players'), club.teams, teamId, players));
  });

  app.get('/stats', { schema: { querystring: StatsQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const all = await readSeasonTotals(readModel, club.clubId);
    const filter = filterOf(club, request.query);
    const chosen = all.filter((doc) =>
      (['teamId', 'season', 'category', 'competition'] as const).every((field) => filter[field] === undefined || doc[field] === filter[field]),
    );
    return reply.type(HTML).send(
      renderStatsPage(frame(request, reply, 'stats'), {
        teams: club.teams,
        filter,
        options: seasonOptions(all),
        players: playerTotalsOf(chosen),
        csvDialect: suggestedDialect(request.headers['accept-language']),
      }),
    );
  });

  app.get('/player', { schema: { querystring: PlayerQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const { team, key } = request.query;
    const teamId = teamOf(club, team);
    const player = teamId === undefined ? undefined : playerTotalsOf(await readSeasonTotals(readModel, club.clubId, { teamId })).find((p) => p.key === key);
    if (teamId === undefined || player === undefined) throw notFound('no such player of your club: open one from Players or Stats');
    const page = request.query.page ?? 1;
    const matches = await readClubMatches(readModel, club.clubId, { teamId }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
    const pages = Math.max(1, Math.ceil((await countClubMatches(readModel, club.clubId, { teamId })) / PAGE_SIZE));
    return reply.type(HTML).send(
      renderPlayerPage(frame(request, reply, 'players'), {
        teamName: teamNameOf(club)(teamId),
        player,
        lines: playerLinesOf(matches, key),
        page,
        pages,
        pageLink: (n) => `/dashboard/player${query({ team: teamId, key, page: n > 1 ? n : undefined })}`,
      }),
    );
  });

  app.get('/matches', { schema: { querystring: MatchesQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const teamId = teamOf(club, request.query.team);
    const page = request.query.page ?? 1;
    const onlySideUnknown = request.query.side === 'unknown';
    const listed = onlySideUnknown ? { teamId, side: null } : { teamId };
    const [matches, total, sideUnknown] = await Promise.all([
      readClubMatches(readModel, club.clubId, listed, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
      countClubMatches(readModel, club.clubId, listed),
      countClubMatches(readModel, club.clubId, { teamId, side: null }),
    ]);
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    return reply.type(HTML).send(
      renderMatchesPage(frame(request, reply, 'matches'), {
        teams: club.teams,
        teamId,
        onlySideUnknown,
        csvDialect: suggestedDialect(request.headers['accept-language']),
        matches,
        page,
        pages,
        sideUnknown,
        matchUrl,
        info: doneMessage(request.query.done),
      }),
    );
  });

  app.get('/matches/:matchId', { schema: { params: MatchParams, querystring: Done } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    const match = await syncedMatch(readModel, club.clubId, matchId);
    const fromLog = await readClubMatchFromLog(eventStore, match);
    return reply.type(HTML).send(
      renderMatchPage(frame(request, reply, 'matches'), {
        teams: club.teams,
        match,
        fromLog,
        matchUrl: matchUrl(matchId),
        info: doneMessage(request.query.done),
      }),
    );
  });
};
