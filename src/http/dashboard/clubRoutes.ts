import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClubCommands } from '../../commands/clubCommands.js';
import type { ExistingClub } from '../../domain/club.js';
import type { SyncEnforcement } from '../../domain/clubSync.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import type { EventLog } from '../../../projections/projection.js';
import { clubDataRoutes } from './club/clubDataRoutes.js';
import { connectRoutes } from './club/connectRoutes.js';
import { decisionRoutes } from './club/decisionRoutes.js';
import { type DashboardErasure, erasureRoutes } from './club/erasureRoutes.js';
import { exportRoutes } from './club/exportRoutes.js';
import { fixturesRoutes } from './club/fixturesRoutes.js';
import { publicityRoutes } from './club/publicityRoutes.js';
import { teamsRoutes } from './club/teamsRoutes.js';
import { type WebhookLimits, webhookRoutes } from './club/webhookRoutes.js';
import type { WebhookStore } from '../../webhooks/webhookStore.js';
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
  /** The clubs' webhook endpoints and deliveries, and the operator's limits on them. */
  webhooks: WebhookStore;
  webhookLimits: WebhookLimits;
  /** The operator's erasure, asked for by a club admin. */
  erasure: DashboardErasure;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The club whose admin is signed in (set for every page behind the login). */
    dashboardClub: ExistingClub | null;
  }
}

/**
 * Every page behind the login, one plugin per section (src/http/dashboard/club/): the club's
 * data (overview, players, stats, matches), teams, Connect, exports and the admin's decisions
 * about a match (webhooks under Connect, an erasure asked for). Each section's schemas sit beside its routes.
 */
export const clubRoutes: FastifyPluginAsyncTypebox<ClubRoutesDeps> = async (
  app,
  { clubs, readModel, eventStore, matchUrl, publicBaseUrl, globalEnforcement, webhooks, webhookLimits, erasure },
) => {
  app.decorateRequest('dashboardClub', null);
  // Added before the sections are registered, so it runs for each of their routes.
  app.addHook('preHandler', async (request, reply) => {
    const club = await signedInClub(request, clubs.loadClub);
    if (club === null) return reply.redirect('/dashboard/login', 303);
    request.dashboardClub = club;
  });
  // Field by field, as dashboardRoutes does: the options Fastify hands a plugin also carry its prefix.
  await app.register(clubDataRoutes, { readModel, eventStore, matchUrl });
  await app.register(teamsRoutes, { clubs });
  await app.register(publicityRoutes, { clubs });
  await app.register(fixturesRoutes, { clubs });
  await app.register(connectRoutes, { clubs, readModel, matchUrl, publicBaseUrl, globalEnforcement });
  await app.register(exportRoutes, { readModel, matchUrl });
  await app.register(decisionRoutes, { clubs, readModel });
  await app.register(webhookRoutes, { webhooks, webhookLimits });
  await app.register(erasureRoutes, { readModel, erasure });
};
