import type { FastifyPluginAsync } from 'fastify';
import { summarizeMatch } from '../domain/matchPayload.js';
import { isMatchId } from '../domain/matchId.js';
import type { ReadModelReader } from '../readmodel/port.js';
import { readPublicView } from '../../projections/publicView.js';
import { renderMatchPage, renderNotFoundPage } from './pages/matchPage.js';
import { PAGE_CSP } from './pages/layout.js';

/** The public page of a match: server-rendered HTML, no scripts, no authentication. */
export const matchPage: FastifyPluginAsync<{ readModel: ReadModelReader }> = async (app, { readModel }) => {
  app.get<{ Params: { id: string } }>('/match/:id', { schema: { hide: true } }, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).header('x-content-type-options', 'nosniff');
    const { id } = request.params;
    const doc = isMatchId(id) ? await readPublicView(readModel, id) : null;
    if (doc === null) return reply.code(404).send(renderNotFoundPage(id));
    return renderMatchPage({
      id: doc.id,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      versions: doc.versions,
      protected: doc.protected,
      summary: summarizeMatch(JSON.parse(doc.payload)),
    });
  });
};
