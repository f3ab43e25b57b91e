import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands } from '../../../commands/clubCommands.js';
import { renderTeamsPage } from '../views/connectPages.js';
import { clubOf, context, doneMessage, frame, HTML, type Messages, submitForm } from './clubPage.js';
import { Done } from './clubPageSchemas.js';
import { AliasesBody, TeamNameBody, TeamParams } from './teamsSchemas.js';

/** Teams: the club's teams, their names and the other names uploads give them. */
export const teamsRoutes: FastifyPluginAsyncTypebox<{ clubs: ClubCommands }> = async (app, { clubs }) => {
  async function teamsPage(request: FastifyRequest, reply: FastifyReply, messages: Messages, status = 200) {
    const club = clubOf(request);
    return reply
      .code(status)
      .type(HTML)
      .send(renderTeamsPage(frame(request, reply, 'teams'), { clubId: club.clubId, teams: club.teams }, messages));
  }

  app.get('/teams', { schema: { querystring: Done } }, async (request, reply) =>
    teamsPage(request, reply, { info: doneMessage(request.query.done), error: null }),
  );

  app.post('/teams', { schema: { body: TeamNameBody } }, async (request, reply) =>
    submitForm(
      async () => {
        await clubs.addTeam(clubOf(request).clubId, request.body.name, context(request));
        return reply.redirect('/dashboard/teams?done=team-added', 303);
      },
      (messages, status) => teamsPage(request, reply, messages, status),
    ),
  );

  app.post('/teams/:teamId', { schema: { params: TeamParams, body: TeamNameBody } }, async (request, reply) =>
    submitForm(
      async () => {
        await clubs.renameTeam(clubOf(request).clubId, request.params.teamId, request.body.name, context(request));
        return reply.redirect('/dashboard/teams?done=team-renamed', 303);
      },
      (messages, status) => teamsPage(request, reply, messages, status),
    ),
  );

  app.post('/teams/:teamId/aliases', { schema: { params: TeamParams, body: AliasesBody } }, async (request, reply) =>
    submitForm(
      async () => {
        const aliases = request.body.aliases.split(/[\n;]/);
        await clubs.setTeamAliases(clubOf(request).clubId, request.params.teamId, aliases, context(request));
        return reply.redirect('/dashboard/teams?done=aliases-saved', 303);
      },
      (messages, status) => teamsPage(request, reply, messages, status),
    ),
  );
};
