import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../../commands/clubCommands.js';
import { validationError } from '../../../domain/errors.js';
import { ERASE_REASON_MAX, type ErasureAsker } from '../../../domain/match.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import { renderErasurePage } from '../views/erasurePage.js';
import { clubOf, context, frame, HTML, submitForm, syncedMatch } from './clubPage.js';
import { MatchParams } from './clubDataSchemas.js';
import { Csrf } from './clubPageSchemas.js';

/** The operator's erasure of one match, asked for by a club admin (wired by src/runtime/app.ts). */
export interface DashboardErasure {
  erase(matchId: string, reason: string, askedBy: ErasureAsker, context: RequestContext): Promise<void>;
}

export interface ErasureRoutesDeps {
  readModel: ReadModelReader;
  erasure: DashboardErasure;
}

const EraseBody = Type.Object({
  _csrf: Csrf,
  reason: Type.String({ maxLength: ERASE_REASON_MAX + 100 }),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});

/**
 * A club admin erases one of the club's matches (answering a parent without the scoring app's
 * token): a confirm page, then the operator's erasure with the admin's reason, recorded in the
 * log with the club and admin who asked, and in the erasure ledger. Only matches synced into the club.
 */
export const erasureRoutes: FastifyPluginAsyncTypebox<ErasureRoutesDeps> = async (app, { readModel, erasure }) => {
  async function confirmPage(request: FastifyRequest, reply: FastifyReply, matchId: string, reason: string, error: string | null, status = 200) {
    const match = await syncedMatch(readModel, clubOf(request).clubId, matchId);
    const title = `${match.home.name ?? 'Home'} – ${match.away.name ?? 'Away'}`;
    return reply
      .code(status)
      .type(HTML)
      .send(renderErasurePage(frame(request, reply, 'matches'), { matchId, title, reason, error }));
  }

  app.get('/matches/:matchId/erase', { schema: { params: MatchParams } }, async (request, reply) =>
    confirmPage(request, reply, request.params.matchId, '', null),
  );

  app.post('/matches/:matchId/erase', { schema: { params: MatchParams, body: EraseBody } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    const reason = request.body.reason.trim();
    await syncedMatch(readModel, club.clubId, matchId);
    return submitForm(
      async () => {
        if (reason === '' || reason.length > ERASE_REASON_MAX) throw validationError(`give the reason for the erasure, 1 to ${ERASE_REASON_MAX} characters`);
        if (request.body.confirm !== 'yes') throw validationError('tick "I understand that this erases the match for good" to erase it');
        await erasure.erase(matchId, reason, { clubId: club.clubId, adminEmail: club.adminEmail }, context(request));
        return reply.redirect('/dashboard/matches?done=match-erased', 303);
      },
      (messages, status) => confirmPage(request, reply, matchId, reason, messages.error, status),
    );
  });
};
