import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands, RequestContext } from '../../commands/clubCommands.js';
import type { ExistingClub } from '../../domain/club.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { isMatchId } from '../../domain/matchId.js';
import type { ReadModelReader } from '../../readmodel/port.js';
import { playerStatsOf, readClubMatch, readClubMatchActions, readClubMatches } from '../../../projections/clubDashboard.js';
import { readAppKeyUsage, readSyncLog, SYNC_OUTCOMES } from '../../../projections/syncStatus.js';
import { classifyClientAddress } from '../clientAddress.js';
import { renderHomePage, renderMatchesPage, renderMatchPage, renderPlayersPage, renderStatsPage } from '../pages/dashboard/clubDataPages.js';
import { renderKeysPage, renderNewKeyPage, renderSyncStatusPage, renderTeamsPage } from '../pages/dashboard/connectPages.js';
import type { DashboardSection, Frame } from '../pages/dashboard/frame.js';
import { signedInClub } from './session.js';

export interface ClubRoutesDeps {
  clubs: ClubCommands;
  readModel: ReadModelReader;
  matchUrl: (matchId: string) => string;
  publicBaseUrl: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The club whose admin is signed in (set for every page behind the login). */
    dashboardClub: ExistingClub | null;
  }
}

const Text = Type.String({ maxLength: 200 });
const Done = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const TeamQuery = Type.Object({ team: Type.Optional(Type.String({ maxLength: 64 })) });
const StatsQuery = Type.Object({
  team: Type.Optional(Type.String({ maxLength: 64 })),
  season: Type.Optional(Type.String({ maxLength: 100 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  competition: Type.Optional(Type.String({ maxLength: 100 })),
});
const SyncQuery = Type.Object({
  outcome: Type.Optional(Type.Union(SYNC_OUTCOMES.map((o) => Type.Literal(o)))),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});

/** Messages after a redirect, by a fixed code: no text from the request is shown back. */
const DONE: Record<string, string> = {
  welcome: 'Your club is ready. Add your teams, then generate an app key under Connect.',
  'team-added': 'Team added.',
  'team-renamed': 'Team renamed.',
  'key-revoked': 'App key revoked: it no longer authenticates any sync.',
};
const doneMessage = (done: string | undefined) => (done === undefined ? null : (DONE[done] ?? null));

const SYNC_PAGE_SIZE = 50;
const blankToUndefined = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** Every page behind the login: overview, teams, Connect, players, stats, matches. */
export const clubRoutes: FastifyPluginAsyncTypebox<ClubRoutesDeps> = async (app, { clubs, readModel, matchUrl, publicBaseUrl }) => {
  const html = 'text/html; charset=utf-8';
  app.decorateRequest('dashboardClub', null);
  app.addHook('preHandler', async (request, reply) => {
    const club = await signedInClub(request, clubs.loadClub);
    if (club === null) return reply.redirect('/dashboard/login', 303);
    request.dashboardClub = club;
  });

  function clubOf(request: FastifyRequest): ExistingClub {
    if (request.dashboardClub === null) throw new Error('page behind the login reached without a club');
    return request.dashboardClub;
  }
  const frame = (request: FastifyRequest, reply: FastifyReply, section: DashboardSection): Frame => ({
    clubName: clubOf(request).name,
    csrfToken: reply.generateCsrf(),
    section,
  });
  const context = (request: FastifyRequest): RequestContext => ({ requestId: request.id, clientAddressClass: classifyClientAddress(request.ip) });
  const teamOf = (club: ExistingClub, teamId: string | undefined) => (club.teams.some((t) => t.teamId === teamId) ? teamId : undefined);

  app.get('/', { schema: { querystring: Done } }, async (request, reply) => {
    const club = clubOf(request);
    const matches = await readClubMatches(readModel, club.clubId);
    const { rows } = await readSyncLog(readModel, club.clubId, { limit: 1 });
    return reply.type(html).send(
      renderHomePage(frame(request, reply, 'home'), {
        clubId: club.clubId,
        teams: club.teams,
        matches: matches.length,
        players: playerStatsOf(matches).length,
        latestSync: rows[0] ?? null,
        info: doneMessage(request.query.done),
      }),
    );
  });

  // Teams

  async function teamsPage(request: FastifyRequest, reply: FastifyReply, messages: { info: string | null; error: string | null }, status = 200) {
    const club = clubOf(request);
    return reply.code(status).type(html).send(renderTeamsPage(frame(request, reply, 'teams'), { clubId: club.clubId, teams: club.teams }, messages));
  }

  app.get('/teams', { schema: { querystring: Done } }, async (request, reply) => teamsPage(request, reply, { info: doneMessage(request.query.done), error: null }));

  app.post('/teams', { schema: { body: Type.Object({ _csrf: Type.Optional(Text), name: Text }) } }, async (request, reply) => {
    try {
      await clubs.addTeam(clubOf(request).clubId, request.body.name, context(request));
      return reply.redirect('/dashboard/teams?done=team-added', 303);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'validation') return teamsPage(request, reply, { info: null, error: error.message }, 400);
      throw error;
    }
  });

  app.post('/teams/:teamId', { schema: { params: Type.Object({ teamId: Type.String({ maxLength: 64 }) }), body: Type.Object({ _csrf: Type.Optional(Text), name: Text }) } }, async (request, reply) => {
    try {
      await clubs.renameTeam(clubOf(request).clubId, request.params.teamId, request.body.name, context(request));
      return reply.redirect('/dashboard/teams?done=team-renamed', 303);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'validation') return teamsPage(request, reply, { info: null, error: error.message }, 400);
      throw error;
    }
  });

  // Connect: app keys and sync status

  async function keysPage(request: FastifyRequest, reply: FastifyReply, messages: { info: string | null; error: string | null }, status = 200) {
    const club = clubOf(request);
    const usage = await readAppKeyUsage(readModel, club.clubId);
    return reply
      .code(status)
      .type(html)
      .send(renderKeysPage(frame(request, reply, 'connect'), { club: { clubId: club.clubId, teams: club.teams }, keys: club.appKeys, usage, ...messages }));
  }

  app.get('/connect', { schema: { querystring: Done } }, async (request, reply) => keysPage(request, reply, { info: doneMessage(request.query.done), error: null }));

  app.post('/connect/keys', { schema: { body: Type.Object({ _csrf: Type.Optional(Text), label: Type.Optional(Text) }) } }, async (request, reply) => {
    const club = clubOf(request);
    const label = request.body.label ?? '';
    try {
      const issued = await clubs.issueAppKey(club.clubId, label, context(request));
      // Shown in the response to this POST, never stored: a reload cannot show it again.
      return reply
        .type(html)
        .send(renderNewKeyPage(frame(request, reply, 'connect'), { key: issued.key, keyId: issued.keyId, label: label.trim() }, { clubId: club.clubId, teams: club.teams }, publicBaseUrl));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'validation') return keysPage(request, reply, { info: null, error: error.message }, 400);
      throw error;
    }
  });

  app.post('/connect/keys/:keyId/revoke', { schema: { params: Type.Object({ keyId: Type.String({ maxLength: 64 }) }), body: Type.Object({ _csrf: Type.Optional(Text) }) } }, async (request, reply) => {
    await clubs.revokeAppKey(clubOf(request).clubId, request.params.keyId, context(request));
    return reply.redirect('/dashboard/connect?done=key-revoked', 303);
  });

  app.get('/connect/sync-status', { schema: { querystring: SyncQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const page = request.query.page ?? 1;
    const { rows, total } = await readSyncLog(readModel, club.clubId, { outcome: request.query.outcome, limit: SYNC_PAGE_SIZE, offset: (page - 1) * SYNC_PAGE_SIZE });
    return reply.type(html).send(
      renderSyncStatusPage(frame(request, reply, 'connect'), {
        rows,
        total,
        outcome: request.query.outcome,
        page,
        pageSize: SYNC_PAGE_SIZE,
        teams: club.teams,
        keys: club.appKeys,
        matchUrl,
      }),
    );
  });

  // The club's data

  app.get('/players', { schema: { querystring: TeamQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const teamId = teamOf(club, request.query.team);
    const players = playerStatsOf(await readClubMatches(readModel, club.clubId, { teamId }));
    return reply.type(html).send(renderPlayersPage(frame(request, reply, 'players'), club.teams, teamId, players));
  });

  app.get('/stats', { schema: { querystring: StatsQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const all = await readClubMatches(readModel, club.clubId);
    const distinct = (pick: (m: (typeof all)[number]) => string | null) => [...new Set(all.map(pick).filter((v): v is string => v !== null))].sort();
    const filter = {
      teamId: teamOf(club, blankToUndefined(request.query.team)),
      season: blankToUndefined(request.query.season),
      category: blankToUndefined(request.query.category),
      competition: blankToUndefined(request.query.competition),
    };
    const players = playerStatsOf(await readClubMatches(readModel, club.clubId, filter));
    return reply.type(html).send(
      renderStatsPage(frame(request, reply, 'stats'), {
        teams: club.teams,
        filter,
        options: { seasons: distinct((m) => m.season), categories: distinct((m) => m.category), competitions: distinct((m) => m.competition) },
        players,
      }),
    );
  });

  app.get('/matches', { schema: { querystring: TeamQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const teamId = teamOf(club, request.query.team);
    const matches = await readClubMatches(readModel, club.clubId, { teamId });
    return reply.type(html).send(renderMatchesPage(frame(request, reply, 'matches'), club.teams, teamId, matches, matchUrl));
  });

  app.get('/matches/:matchId', { schema: { params: Type.Object({ matchId: Type.String({ maxLength: 200 }) }) } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    const match = isMatchId(matchId) ? await readClubMatch(readModel, club.clubId, matchId) : null;
    if (match === null) throw notFound(`no match ${matchId} was synced into this club`);
    const actions = await readClubMatchActions(readModel, club.clubId, matchId);
    return reply.type(html).send(renderMatchPage(frame(request, reply, 'matches'), club.teams, match, actions, matchUrl(matchId)));
  });
};
