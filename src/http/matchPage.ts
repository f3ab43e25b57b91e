import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { isMatchId } from '../domain/matchId.js';
import { summarizeMatch } from '../domain/matchPayload.js';
import type { EventStore } from '../eventstore/port.js';
import { readMatchAt, readMatchHistory } from '../history/matchHistory.js';
import { createLru } from '../lru.js';
import type { ReadModelReader } from '../readmodel/port.js';
import { readPublicMatch, readPublicPayload, readPublicView } from '../../projections/publicView.js';
import { renderHistoryPage } from './pages/historyPage.js';
import { PAGE_CSP } from './pages/layout.js';
import { renderMatchPage, renderNotFoundPage } from './pages/matchPage.js';

interface PageQuery {
  revision?: string;
  order?: string;
  from?: string;
}

/** A non-negative integer from a query string, or null when absent or malformed. */
function revisionParam(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** The public pages of a match: server-rendered HTML, no scripts, no authentication. */
export const matchPage: FastifyPluginAsync<{ readModel: ReadModelReader; eventStore: EventStore }> = async (app, { readModel, eventStore }) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).header('x-content-type-options', 'nosniff');
  });

  const rendered = createLru<string>(200);
  const notFoundPage = (reply: FastifyReply, id: string) => reply.code(404).send(renderNotFoundPage(id));
  /** Log reads throw not-found DomainErrors; on a page they are the HTML 404. */
  const orNotFound = async <T>(read: Promise<T>): Promise<T | null> =>
    read.catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      throw error;
    });

  app.get<{ Params: { id: string }; Querystring: PageQuery }>('/match/:id', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    if (!isMatchId(id)) return notFoundPage(reply, id);
    if (request.query.revision !== undefined) {
      const revision = revisionParam(request.query.revision);
      const old = revision === null ? null : await orNotFound(readMatchAt(eventStore, id, revision));
      if (old === null) return notFoundPage(reply, id);
      return renderMatchPage({
        id,
        createdAt: old.created.recordedAt,
        updatedAt: old.version.recordedAt,
        protected: old.created.content.protection === 'protected',
        summary: summarizeMatch(JSON.parse(old.version.content.payloadText)),
        asOf: { revision: old.version.revision, latestRevision: old.head },
      });
    }
    const doc = await readPublicView(readModel, id);
    if (doc === null) return notFoundPage(reply, id);
    // A page depends only on its document, which a revision fixes: render each one once.
    const key = `${doc.id}\0${doc.revision}`;
    let page = rendered.get(key);
    if (page === undefined) {
      page = renderMatchPage({
        id: doc.id,
        createdAt: doc.createdAt,
        updatedAt: doc.updatedAt,
        versions: doc.versions,
        protected: doc.protected,
        summary: summarizeMatch(JSON.parse(await readPublicPayload(eventStore, doc))),
      });
      rendered.set(key, page);
    }
    return page;
  });

  app.get<{ Params: { id: string }; Querystring: PageQuery }>('/match/:id/history', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    const order = request.query.order === 'oldest' ? 'oldest' : 'newest';
    const from = revisionParam(request.query.from);
    const page = isMatchId(id) ? await orNotFound(readMatchHistory(readModel, id, { order, limit: 50, ...(from === null ? {} : { from }) })) : null;
    if (page === null) return notFoundPage(reply, id);
    const current = await readPublicMatch(readModel, eventStore, id);
    return renderHistoryPage({ id, order, page, summary: summarizeMatch(current === null ? null : JSON.parse(current.payload)) });
  });
};
