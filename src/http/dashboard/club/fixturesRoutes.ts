import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands } from '../../../commands/clubCommands.js';
import { teamFixtures } from '../../../domain/club.js';
import { notFound } from '../../../domain/errors.js';
import { parseFixtureCsv } from '../../../domain/fixtureCsv.js';
import { fixtureDetails } from '../../../domain/fixtures.js';
import { renderFixturesPage } from '../views/fixturesPage.js';
import { clubOf, context, frame, HTML, type Messages, submitForm } from './clubPage.js';
import { Done } from './clubPageSchemas.js';
import { FixtureBody, FixtureCsvBody, FixtureParams } from './fixturesSchemas.js';
import { TeamParams } from './teamsSchemas.js';

/** Messages after a redirect, by a fixed code. */
const DONE: Record<string, string> = {
  announced: 'Fixture announced: the team page and its feeds list it.',
  imported: 'Fixtures imported: the team page and its feeds list them.',
  changed: 'Fixture changed: calendars that subscribe show the new details at their next refresh.',
  cancelled: 'Fixture cancelled: calendars that subscribe show it cancelled.',
};

const inputOf = (body: Static<typeof FixtureBody>) => ({
  opponent: body.opponent,
  date: body.date,
  time: body.time,
  timeZone: body.timeZone,
  venue: body.venue ?? '',
  homeAway: body.homeAway ?? '',
  matchId: body.matchId ?? '',
});

/** Teams → a team → Fixtures (issue 61): the form, the CSV import, a change and a cancellation; each refusal changes nothing. */
export const fixturesRoutes: FastifyPluginAsyncTypebox<{ clubs: ClubCommands }> = async (app, { clubs }) => {
  function teamOf(request: FastifyRequest, teamId: string) {
    const team = clubOf(request).teams.find((t) => t.teamId === teamId);
    if (team === undefined) throw notFound(`the club has no team ${teamId}`);
    return team;
  }

  async function fixturesPage(request: FastifyRequest, reply: FastifyReply, teamId: string, messages: Messages, status = 200, csv = '') {
    const team = teamOf(request, teamId);
    const page = renderFixturesPage(frame(request, reply, 'teams'), team, teamFixtures(clubOf(request), teamId), messages, csv);
    return reply.code(status).type(HTML).send(page);
  }

  app.get('/teams/:teamId/fixtures', { schema: { params: TeamParams, querystring: Done } }, async (request, reply) =>
    fixturesPage(request, reply, request.params.teamId, { info: DONE[request.query.done ?? ''] ?? null, error: null }),
  );

  app.post('/teams/:teamId/fixtures', { schema: { params: TeamParams, body: FixtureBody } }, async (request, reply) => {
    const { teamId } = request.params;
    return submitForm(
      async () => {
        await clubs.announceFixtures(clubOf(request).clubId, teamOf(request, teamId).teamId, [fixtureDetails(inputOf(request.body))], context(request));
        return reply.redirect(`/dashboard/teams/${teamId}/fixtures?done=announced`, 303);
      },
      (messages, status) => fixturesPage(request, reply, teamId, messages, status),
    );
  });

  app.post('/teams/:teamId/fixtures/import', { schema: { params: TeamParams, body: FixtureCsvBody } }, async (request, reply) => {
    const { teamId } = request.params;
    return submitForm(
      async () => {
        const fixtures = parseFixtureCsv(request.body.csv, request.body.timeZone);
        await clubs.announceFixtures(clubOf(request).clubId, teamOf(request, teamId).teamId, fixtures, context(request));
        return reply.redirect(`/dashboard/teams/${teamId}/fixtures?done=imported`, 303);
      },
      // The pasted text comes back in the form, to be fixed rather than pasted again.
      (messages, status) => fixturesPage(request, reply, teamId, messages, status, request.body.csv),
    );
  });

  app.post('/teams/:teamId/fixtures/:fixtureId', { schema: { params: FixtureParams, body: FixtureBody } }, async (request, reply) => {
    const { teamId, fixtureId } = request.params;
    return submitForm(
      async () => {
        await clubs.changeFixture(clubOf(request).clubId, teamId, fixtureId, fixtureDetails(inputOf(request.body)), context(request));
        return reply.redirect(`/dashboard/teams/${teamId}/fixtures?done=changed`, 303);
      },
      (messages, status) => fixturesPage(request, reply, teamId, messages, status),
    );
  });

  app.post('/teams/:teamId/fixtures/:fixtureId/cancel', { schema: { params: FixtureParams } }, async (request, reply) => {
    const { teamId, fixtureId } = request.params;
    return submitForm(
      async () => {
        await clubs.cancelFixture(clubOf(request).clubId, teamId, fixtureId, context(request));
        return reply.redirect(`/dashboard/teams/${teamId}/fixtures?done=cancelled`, 303);
      },
      (messages, status) => fixturesPage(request, reply, teamId, messages, status),
    );
  });
};
