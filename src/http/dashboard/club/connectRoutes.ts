import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClubCommands } from '../../../commands/clubCommands.js';
import type { SyncEnforcement } from '../../../domain/clubSync.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import { readAppKeyUsage, readSyncLog } from '../../../../projections/syncStatus.js';
import { renderKeysPage, renderNewKeyPage, renderSyncStatusPage } from '../views/connectPages.js';
import { clubOf, context, doneMessage, frame, HTML, type Messages, submitForm } from './clubPage.js';
import { CsrfOnlyBody, KeyParams, KeyRequirementBody, NewKeyBody, SyncQuery } from './connectSchemas.js';
import { Done } from './clubPageSchemas.js';

export interface ConnectRoutesDeps {
  clubs: ClubCommands;
  readModel: ReadModelReader;
  matchUrl: (matchId: string) => string;
  publicBaseUrl: string;
  /** CLUB_SYNC_ENFORCEMENT, shown beside the club's own setting. */
  globalEnforcement: SyncEnforcement;
}

/** Sync rows are listed this many at a time: the page does not grow with the club's syncs. */
const SYNC_PAGE_SIZE = 50;

/** Connect: app keys, whether syncs need one, and the status of each sync. */
export const connectRoutes: FastifyPluginAsyncTypebox<ConnectRoutesDeps> = async (app, { clubs, readModel, matchUrl, publicBaseUrl, globalEnforcement }) => {
  async function keysPage(request: FastifyRequest, reply: FastifyReply, messages: Messages, status = 200) {
    const club = clubOf(request);
    const usage = await readAppKeyUsage(readModel, club.clubId);
    return reply
      .code(status)
      .type(HTML)
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

  app.get('/connect', { schema: { querystring: Done } }, async (request, reply) =>
    keysPage(request, reply, { info: doneMessage(request.query.done), error: null }),
  );

  app.post('/connect/keys', { schema: { body: NewKeyBody } }, async (request, reply) => {
    const club = clubOf(request);
    const label = request.body.label ?? '';
    return submitForm(
      async () => {
        const issued = await clubs.issueAppKey(club.clubId, label, context(request));
        // Shown in the response to this POST, never stored: a reload cannot show it again.
        return reply
          .type(HTML)
          .send(
            renderNewKeyPage(
              frame(request, reply, 'connect'),
              { key: issued.key, keyId: issued.keyId, label: label.trim() },
              { clubId: club.clubId, teams: club.teams },
              publicBaseUrl,
            ),
          );
      },
      (messages, status) => keysPage(request, reply, messages, status),
    );
  });

  app.post('/connect/keys/:keyId/revoke', { schema: { params: KeyParams, body: CsrfOnlyBody } }, async (request, reply) => {
    await clubs.revokeAppKey(clubOf(request).clubId, request.params.keyId, context(request));
    return reply.redirect('/dashboard/connect?done=key-revoked', 303);
  });

  app.post('/connect/key-requirement', { schema: { body: KeyRequirementBody } }, async (request, reply) => {
    const required = request.body.required === 'yes';
    await clubs.setAppKeyRequirement(clubOf(request).clubId, required, context(request));
    return reply.redirect(`/dashboard/connect?done=${required ? 'key-required' : 'key-not-required'}`, 303);
  });

  app.get('/connect/sync-status', { schema: { querystring: SyncQuery } }, async (request, reply) => {
    const club = clubOf(request);
    const page = request.query.page ?? 1;
    const { rows, total } = await readSyncLog(readModel, club.clubId, {
      outcome: request.query.outcome,
      limit: SYNC_PAGE_SIZE,
      offset: (page - 1) * SYNC_PAGE_SIZE,
    });
    return reply.type(HTML).send(
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
};
