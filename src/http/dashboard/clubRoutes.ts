import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands, RequestContext } from '../../commands/clubCommands.js';
import { type ExistingClub, nameToRemember } from '../../domain/club.js';
import type { SyncEnforcement } from '../../domain/clubSync.js';
import { notFound } from '../../domain/errors.js';
import { isMatchId } from '../../domain/matchId.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import type { EventLog } from '../../../projections/projection.js';
import { countClubMatches, playerLinesOf, readClubMatch, readClubMatchFromLog, readClubMatches } from '../../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals, seasonOptions } from '../../../projections/clubSeasonTotals.js';
import { readAppKeyUsage, readSyncLog, SYNC_OUTCOMES, type SyncOutcome } from '../../../projections/syncStatus.js';
import { classifyClientAddress } from '../clientAddress.js';
import { formRefusal } from '../errorHandling.js';
import { matchesTable, playersTable, toCsv, toJsonRows } from './clubExport.js';
import { CSV_ROWS } from '../views/renderCaps.js';
import { renderHomePage, renderMatchesPage, renderMatchPage } from './views/clubDataPages.js';
import { query } from './views/frame.js';
import { renderPlayerPage, renderPlayersPage, renderStatsPage } from './views/playerPages.js';
import { renderKeysPage, renderNewKeyPage, renderSyncStatusPage, renderTeamsPage } from './views/connectPages.js';
import type { DashboardSection, Frame } from './views/frame.js';
import { RETURN_TO, type ReturnTo } from './views/matchDecisions.js';
import { signedInClub } from './session.js';

export interface ClubRoutesDeps {
  clubs: ClubCommands;
  readModel: ReadModelReader;
  /** The log, for what is read from a payload rather than copied (a match's play-by-play). */
  eventStore: EventLog;
  matchUrl: (matchId: string) => string;
  publicBaseUrl: string;
  /** CLUB_SYNC_ENFORCEMENT, shown beside the club's own setting. */
  globalEnforcement: SyncEnforcement;
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
const PageNumber = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 }));
const MatchesQuery = Type.Object({ team: Type.Optional(Type.String({ maxLength: 64 })), done: Type.Optional(Type.String({ maxLength: 40 })), page: PageNumber });
const PlayerQuery = Type.Object({ team: Type.String({ maxLength: 64 }), key: Type.String({ maxLength: 300 }), page: PageNumber });
/** Matches, players' lines and sync rows are listed this many at a time: no page grows with the club. */
const PAGE_SIZE = 50;
/** The match list export: every match of a big club's seasons, with room to spare (one more is read to know the file is cut). */
const EXPORT_MAX_MATCHES = CSV_ROWS;
const StatsQuery = Type.Object({
  team: Type.Optional(Type.String({ maxLength: 64 })),
  season: Type.Optional(Type.String({ maxLength: 100 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  competition: Type.Optional(Type.String({ maxLength: 100 })),
});
const SyncQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  outcome: Type.Optional(Type.Union(SYNC_OUTCOMES.map((o) => Type.Literal(o)))),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});

/** Messages after a redirect, by a fixed code: no text from the request is shown back. */
const DONE: Record<string, string> = {
  welcome: 'Your club is ready. Add your teams, then generate an app key under Connect.',
  'team-added': 'Team added.',
  'team-renamed': 'Team renamed.',
  'key-revoked': 'App key revoked: it no longer authenticates any sync.',
  'aliases-saved': 'Aliases saved: uploads naming the team this way are matched to it.',
  'key-required': 'From now on, every sync into your club needs a valid app key; syncs without one are skipped.',
  'key-not-required': 'Syncs without a valid app key follow the service-wide setting again.',
  'side-settled': "Side saved: the match counts for your team, and later uploads of it keep this side.",
  'side-settled-remembered': 'Side saved, and its name remembered as a name of your team (under Teams): later matches naming your team this way are matched to it.',
  'side-settled-aliases-full': 'Side saved, but its name was not remembered: the team already has 10 other names. Remove one under Teams to add it.',
  'match-excluded': 'The match no longer counts in players and stats.',
  'match-included': 'The match counts in players and stats again.',
};
const doneMessage = (done: string | undefined) => (done === undefined ? null : (DONE[done] ?? null));

/** What a page says above its content: a confirmation, or why a form was refused. */
interface Messages {
  info: string | null;
  error: string | null;
}

const SYNC_PAGE_SIZE = 50;
const blankToUndefined = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** Every page behind the login: overview, teams, Connect, players, stats, matches. */
export const clubRoutes: FastifyPluginAsyncTypebox<ClubRoutesDeps> = async (app, { clubs, readModel, eventStore, matchUrl, publicBaseUrl, globalEnforcement }) => {
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
  /** Runs a form's command; input the domain refuses shows the form again with the reason instead of an error page. */
  async function submitForm(command: () => Promise<FastifyReply>, formAgain: (messages: Messages, status: number) => Promise<FastifyReply>) {
    try {
      return await command();
    } catch (error) {
      const refused = formRefusal(error, ['validation']);
      return formAgain({ info: null, error: refused.message }, refused.statusCode);
    }
  }
  /** Pages and decisions are about matches synced into this club only. */
  async function syncedMatch(clubId: string, matchId: string) {
    const match = isMatchId(matchId) ? await readClubMatch(readModel, clubId, matchId) : null;
    if (match === null) throw notFound(`no match ${matchId} was synced into this club`);
    return match;
  }
  const filterOf = (club: ExistingClub, query: Static<typeof StatsQuery>) => ({
    teamId: teamOf(club, blankToUndefined(query.team)),
    season: blankToUndefined(query.season),
    category: blankToUndefined(query.category),
    competition: blankToUndefined(query.competition),
  });
  const teamNameOf = (club: ExistingClub) => (teamId: string) => club.teams.find((team) => team.teamId === teamId)?.name ?? teamId;
  const teamOf = (club: ExistingClub, teamId: string | undefined) => (club.teams.some((t) => t.teamId === teamId) ? teamId : undefined);

  app.get('/', { schema: { querystring: Done } }, async (request, reply) => {
    const club = clubOf(request);
    const newestOf = async (outcome?: SyncOutcome) => (await readSyncLog(readModel, club.clubId, { outcome, limit: 1 })).rows[0] ?? null;
    const [latest, synced, flagged] = await Promise.all([newestOf(), newestOf('synced'), newestOf('unauthenticated')]);
    const lastCopied = synced === null || (flagged !== null && flagged.position > synced.position) ? flagged : synced;
    return reply.type(html).send(
      renderHomePage(frame(request, reply, 'home'), {
        clubId: club.clubId,
        teams: club.teams,
        matches: await countClubMatches(readModel, club.clubId),
        players: playerTotalsOf(await readSeasonTotals(readModel, club.clubId)).length,
        lastCopied,
        latestAttempt: latest,
        info: doneMessage(request.query.done),
      }),
    );
  });

  // Teams

  async function teamsPage(request: FastifyRequest, reply: FastifyReply, messages: Messages, status = 200) {
    const club = clubOf(request);
    return reply.code(status).type(html).send(renderTeamsPage(frame(request, reply, 'teams'), { clubId: club.clubId, teams: club.teams }, messages));
  }

  app.get('/teams', { schema: { querystring: Done } }, async (request, reply) => teamsPage(request, reply, { info: doneMessage(request.query.done), error: null }));

  app.post('/teams', { schema: { body: Type.Object({ _csrf: Type.Optional(Text), name: Text }) } }, async (request, reply) =>
    submitForm(
      async () => {
        await clubs.addTeam(clubOf(request).clubId, request.body.name, context(request));
        return reply.redirect('/dashboard/teams?done=team-added', 303);
      },
      (messages, status) => teamsPage(request, reply, messages, status),
    ),
  );

  app.post('/teams/:teamId', { schema: { params: Type.Object({ teamId: Type.String({ maxLength: 64 }) }), body: Type.Object({ _csrf: Type.Optional(Text), name: Text }) } }, async (request, reply) =>
    submitForm(
      async () => {
        await clubs.renameTeam(clubOf(request).clubId, request.params.teamId, request.body.name, context(request));
        return reply.redirect('/dashboard/teams?done=team-renamed', 303);
      },
      (messages, status) => teamsPage(request, reply, messages, status),
    ),
  );

  app.post(
    '/teams/:teamId/aliases',
    { schema: { params: Type.Object({ teamId: Type.String({ maxLength: 64 }) }), body: Type.Object({ _csrf: Type.Optional(Text), aliases: Type.String({ maxLength: 1000 }) }) } },
    async (request, reply) =>
      submitForm(
        async () => {
          // One alias per line (or separated by semicolons): team names may contain commas.
          const aliases = request.body.aliases.split(/[\n;]/);
          await clubs.setTeamAliases(clubOf(request).clubId, request.params.teamId, aliases, context(request));
          return reply.redirect('/dashboard/teams?done=aliases-saved', 303);
        },
        (messages, status) => teamsPage(request, reply, messages, status),
      ),
  );

  // Connect: app keys and sync status

  async function keysPage(request: FastifyRequest, reply: FastifyReply, messages: Messages, status = 200) {
    const club = clubOf(request);
    const usage = await readAppKeyUsage(readModel, club.clubId);
    return reply
      .code(status)
      .type(html)
      .send(
        renderKeysPage(frame(request, reply, 'connect'), {
          club: { clubId: club.clubId, teams: club.teams },
          keys: club.appKeys,
          usage,
          requirement: { globalEnforcement, requiredSince: club.appKeyRequiredSince },
          ...messages,
        }),
      );
  }

  app.get('/connect', { schema: { querystring: Done } }, async (request, reply) => keysPage(request, reply, { info: doneMessage(request.query.done), error: null }));

  app.post('/connect/keys', { schema: { body: Type.Object({ _csrf: Type.Optional(Text), label: Type.Optional(Text) }) } }, async (request, reply) => {
    const club = clubOf(request);
    const label = request.body.label ?? '';
    return submitForm(
      async () => {
        const issued = await clubs.issueAppKey(club.clubId, label, context(request));
        // Shown in the response to this POST, never stored: a reload cannot show it again.
        return reply
          .type(html)
          .send(renderNewKeyPage(frame(request, reply, 'connect'), { key: issued.key, keyId: issued.keyId, label: label.trim() }, { clubId: club.clubId, teams: club.teams }, publicBaseUrl));
      },
      (messages, status) => keysPage(request, reply, messages, status),
    );
  });

  app.post('/connect/keys/:keyId/revoke', { schema: { params: Type.Object({ keyId: Type.String({ maxLength: 64 }) }), body: Type.Object({ _csrf: Type.Optional(Text) }) } }, async (request, reply) => {
    await clubs.revokeAppKey(clubOf(request).clubId, request.params.keyId, context(request));
    return reply.redirect('/dashboard/connect?done=key-revoked', 303);
  });

  app.post('/connect/key-requirement', { schema: { body: Type.Object({ _csrf: Type.Optional(Text), required: Type.Union([Type.Literal('yes'), Type.Literal('no')]) }) } }, async (request, reply) => {
    const required = request.body.required === 'yes';
    await clubs.setAppKeyRequirement(clubOf(request).clubId, required, context(request));
    return reply.redirect(`/dashboard/connect?done=${required ? 'key-required' : 'key-not-required'}`, 303);
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
        requirement: { globalEnforcement, requiredSince: club.appKeyRequiredSince },
        excludedMatches: club.excludedMatches,
        settledSides: club.settledSides,
        csrfToken: reply.generateCsrf(),
        info: doneMessage(request.query.done),
      }),
    );
  });

  // The club's data

  app.get('/players', { schema: { querystring: TeamQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const teamId = teamOf(club, request.query.team);
    const players = playerTotalsOf(await readSeasonTotals(readModel, club.clubId, { teamId }));
    return reply.type(html).send(renderPlayersPage(frame(request, reply, 'players'), club.teams, teamId, players));
  });

  app.get('/stats', { schema: { querystring: StatsQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const all = await readSeasonTotals(readModel, club.clubId);
    const filter = filterOf(club, request.query);
    const chosen = all.filter((doc) => (['teamId', 'season', 'category', 'competition'] as const).every((field) => filter[field] === undefined || doc[field] === filter[field]));
    return reply.type(html).send(
      renderStatsPage(frame(request, reply, 'stats'), { teams: club.teams, filter, options: seasonOptions(all), players: playerTotalsOf(chosen) }),
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
    return reply.type(html).send(
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
    const [matches, total, sideUnknown] = await Promise.all([
      readClubMatches(readModel, club.clubId, { teamId }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
      countClubMatches(readModel, club.clubId, { teamId }),
      countClubMatches(readModel, club.clubId, { teamId, side: null }),
    ]);
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    return reply
      .type(html)
      .send(renderMatchesPage(frame(request, reply, 'matches'), { teams: club.teams, teamId, matches, page, pages, sideUnknown, matchUrl, info: doneMessage(request.query.done) }));
  });

  app.get('/matches/:matchId', { schema: { params: Type.Object({ matchId: Type.String({ maxLength: 200 }) }), querystring: Done } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    const match = await syncedMatch(club.clubId, matchId);
    const fromLog = await readClubMatchFromLog(eventStore, match);
    return reply.type(html).send(renderMatchPage(frame(request, reply, 'matches'), { teams: club.teams, match, fromLog, matchUrl: matchUrl(matchId), info: doneMessage(request.query.done) }));
  });

  // Export: the current filter's players and stats, and the match list, as CSV or JSON.

  const exportTables = {
    players: async (club: ExistingClub, query: Static<typeof StatsQuery>) =>
      playersTable(playerTotalsOf(await readSeasonTotals(readModel, club.clubId, filterOf(club, query))), teamNameOf(club)),
    matches: async (club: ExistingClub, query: Static<typeof StatsQuery>) =>
      matchesTable(await readClubMatches(readModel, club.clubId, filterOf(club, query), { limit: EXPORT_MAX_MATCHES + 1 }), teamNameOf(club), matchUrl),
  };
  for (const [name, table] of Object.entries(exportTables)) {
    for (const format of ['csv', 'json'] as const) {
      app.get(`/export/${name}.${format}`, { schema: { querystring: StatsQuery } }, async (request, reply) => {
        const club = clubOf(request);
        const rows = await table(club, request.query);
        const parts = [club.name, name, request.query.season].filter((part): part is string => part !== undefined && part !== '');
        const file = `${parts.join(' ').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').toLowerCase() || name}.${format}`;
        reply.header('content-disposition', `attachment; filename="${file.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`);
        if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(toCsv(rows));
        return reply.type('application/json; charset=utf-8').send({ columns: rows.columns, rows: toJsonRows(rows), ...(rows.omitted ? { omitted: rows.omitted } : {}) });
      });
    }
  }

  // The admin's decisions about a match: recorded in the club's stream, so a rebuild gives the same numbers.

  const MatchIdParams = Type.Object({ matchId: Type.String({ maxLength: 200 }) });
  const ReturnField = Type.Union(RETURN_TO.map((to) => Type.Literal(to)));
  const backTo = (returnTo: ReturnTo, matchId: string, done: string) =>
    returnTo === 'match' ? `/dashboard/matches/${encodeURIComponent(matchId)}?done=${done}` : returnTo === 'sync' ? `/dashboard/connect/sync-status?done=${done}` : `/dashboard/matches?done=${done}`;


  app.post(
    '/matches/:matchId/side',
    {
      schema: {
        params: MatchIdParams,
        body: Type.Object({ _csrf: Type.Optional(Text), side: Type.Union([Type.Literal('home'), Type.Literal('away')]), remember: Type.Optional(Type.Literal('yes')), returnTo: ReturnField }),
      },
    },
    async (request, reply) => {
      const club = clubOf(request);
      const { matchId } = request.params;
      const { side } = request.body;
      const match = await syncedMatch(club.clubId, matchId);
      // "Remember this name": the chosen side's name becomes an alias of the match's team, in the same append.
      const name = (side === 'home' ? match.home.name : match.away.name) ?? '';
      const team = club.teams.find((t) => t.teamId === match.teamId);
      const verdict = request.body.remember === 'yes' && team !== undefined ? nameToRemember(club, team, name) : null;
      await clubs.settleMatchSide(club.clubId, matchId, side, context(request), verdict === 'new' && team ? { teamId: team.teamId, name } : undefined);
      const done = verdict === 'new' ? 'side-settled-remembered' : verdict === 'full' ? 'side-settled-aliases-full' : 'side-settled';
      return reply.redirect(backTo(request.body.returnTo, matchId, done), 303);
    },
  );

  app.post(
    '/matches/:matchId/counting',
    { schema: { params: MatchIdParams, body: Type.Object({ _csrf: Type.Optional(Text), counted: Type.Union([Type.Literal('yes'), Type.Literal('no')]), returnTo: ReturnField }) } },
    async (request, reply) => {
      const club = clubOf(request);
      const { matchId } = request.params;
      await syncedMatch(club.clubId, matchId);
      const counted = request.body.counted === 'yes';
      await clubs.setMatchCounted(club.clubId, matchId, counted, context(request));
      return reply.redirect(backTo(request.body.returnTo, matchId, counted ? 'match-included' : 'match-excluded'), 303);
    },
  );
};
