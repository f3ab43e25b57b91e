import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands } from '../../../commands/clubCommands.js';
import { renderPublicityPage } from '../views/publicityPage.js';
import { clubOf, context, doneMessage, frame, HTML, type Messages, submitForm } from './clubPage.js';
import { Done } from './clubPageSchemas.js';
import { ClubPublicPageBody, TeamPublicityBody } from './publicitySchemas.js';
import { TeamParams } from './teamsSchemas.js';

/** Teams → Public pages: what the public sees of the club and of each team (issue 61). */
export const publicityRoutes: FastifyPluginAsyncTypebox<{ clubs: ClubCommands }> = async (app, { clubs }) => {
  async function publicityPage(request: FastifyRequest, reply: FastifyReply, messages: Messages, status = 200) {
    return reply
      .code(status)
      .type(HTML)
      .send(renderPublicityPage(frame(request, reply, 'teams'), clubOf(request), messages));
  }

  app.get('/teams/public', { schema: { querystring: Done } }, async (request, reply) =>
    publicityPage(request, reply, { info: doneMessage(request.query.done), error: null }),
  );

  app.post('/teams/public-page', { schema: { body: ClubPublicPageBody } }, async (request, reply) =>
    submitForm(
      async () => {
        await clubs.setClubPublicPage(clubOf(request).clubId, request.body.publicPage === 'on', context(request));
        return reply.redirect('/dashboard/teams/public?done=publicity-saved', 303);
      },
      (messages, status) => publicityPage(request, reply, messages, status),
    ),
  );

  app.post('/teams/:teamId/publicity', { schema: { params: TeamParams, body: TeamPublicityBody } }, async (request, reply) =>
    submitForm(
      async () => {
        const { publicPage, privacy, roster, indexing } = request.body;
        const publicity = { publicPage: publicPage === 'on', privacy, roster, indexing };
        await clubs.setTeamPublicity(clubOf(request).clubId, request.params.teamId, publicity, context(request));
        return reply.redirect('/dashboard/teams/public?done=publicity-saved', 303);
      },
      (messages, status) => publicityPage(request, reply, messages, status),
    ),
  );
};
