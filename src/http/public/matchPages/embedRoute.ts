import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { EMBED_CSP } from '../../views/layout.js';
import { allowFraming } from '../../securityHeaders.js';
import { EmbedQuery } from '../pageSchemas.js';
import { serveCurrent } from './currentRenderings.js';
import type { MatchPageContext } from './matchPageContext.js';

/** The live widget other sites frame (`/match/:id/embed`), and its live part (`?part=main`). */
export const embedRoute: FastifyPluginAsync<MatchPageContext> = async (app, ctx) => {
  // Only the widget may be framed, by any site: its own CSP says so, without X-Frame-Options.
  app.get<{ Params: { id: string }; Querystring: Static<typeof EmbedQuery> }>(
    '/match/:id/embed',
    { schema: { hide: true, querystring: EmbedQuery } },
    async (request, reply) => {
      allowFraming(reply);
      reply.header('content-security-policy', EMBED_CSP);
      return serveCurrent(ctx, request, reply, request.query.part === 'main' ? 'embedMain' : 'embed');
    },
  );
};
