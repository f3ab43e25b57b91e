import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound, validationError } from '../../domain/errors.js';
import { isMatchId } from '../../domain/matchId.js';
import { summarizeMatch } from '../../domain/matchPayload.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import { readMatchAt, readMatchHistory } from '../../history/historyQueries.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { type PublicViewDoc, readPublicMatch, readPublicPayload } from '../../../projections/publicView.js';
import { renderEmbedMain, renderEmbedPage } from './views/embedPage.js';
import { renderHistoryPage } from './views/historyPage.js';
import { EMBED_CSP, LIVE_PAGE_CSP } from '../views/layout.js';
import { type MatchPageView, renderMatchErrorPage, renderMatchMain, renderMatchPage, renderPlaysPage } from './views/matchPage.js';
import type { CurrentPublicView } from './publicViews.js';
import { pageErrorHandler } from '../errorHandling.js';
import { allowFraming } from '../securityHeaders.js';
import { createRenderedCache, type RenderedBody, renderedBody, sendRendered } from './renderedPages.js';

interface PageQuery {
  revision?: string;
  order?: string;
  from?: string;
  part?: string;
  page?: string;
}

export interface MatchPageDeps {
  readModel: ReadModelReader;
  currentPublicView: CurrentPublicView;
  eventStore: EventStore;
  /** The public address of a match's page (PUBLIC_BASE_URL + /match/id). */
  matchUrl: (id: string) => string;
  /** Whether to send compressed bytes (the app registers @fastify/compress too). */
  compress: boolean;
}

/** A non-negative integer from a query string, or null when absent or malformed. */
function revisionParam(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

type Rendering = 'page' | 'main' | 'embed' | 'embedMain';

/**
 * The public pages of a match: server-rendered HTML that works without JavaScript; one
 * same-origin script adds live updates. Pages of the current version are rendered once per
 * revision and kept as bytes (and compressed bytes), with an ETag for conditional GETs.
 */
export const matchPage: FastifyPluginAsync<MatchPageDeps> = async (app, { readModel, currentPublicView, eventStore, matchUrl, compress }) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', LIVE_PAGE_CSP).header('x-content-type-options', 'nosniff');
  });

  // The app's one error mapping, rendered as a page (a missing match is the HTML 404).
  app.setErrorHandler(pageErrorHandler(renderMatchErrorPage));
  const rendered = createRenderedCache(400);
  const noMatch = (id: string) => notFound(`no match with id "${id}"`);

  const viewOf = (doc: PublicViewDoc, payload: string): MatchPageView => ({
    id: doc.id,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    versions: doc.versions,
    protected: doc.protected,
    revision: doc.revision,
    publicUrl: matchUrl(doc.id),
    summary: summarizeMatch(JSON.parse(payload)),
  });

  const RENDER: Record<Rendering, (view: MatchPageView) => string> = {
    page: renderMatchPage,
    main: renderMatchMain,
    embed: renderEmbedPage,
    embedMain: renderEmbedMain,
  };

  /**
   * The current version, rendered once per revision (a page depends only on its document).
   * While the public view's checkpoint has not moved, no document changed, so a cached page
   * is served after one small checkpoint read instead of reading the match's document.
   */
  async function current(id: string, rendering: Rendering): Promise<RenderedBody | null> {
    const doc = await currentPublicView(id);
    if (doc === null) return null;
    const key = `${doc.id}\0${doc.revision}\0${rendering}`;
    let body = rendered.get(key);
    if (body === undefined) {
      body = renderedBody(RENDER[rendering](viewOf(doc, await readPublicPayload(eventStore, doc))));
      rendered.set(key, body);
    }
    return body;
  }

  async function serveCurrent(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, rendering: Rendering) {
    const { id } = request.params;
    const body = isMatchId(id) ? await current(id, rendering) : null;
    if (body === null) throw noMatch(id);
    // Revalidate every time: a live match changes from one minute to the next.
    reply.header('cache-control', 'no-cache');
    return sendRendered(request, reply, body, compress);
  }

  /** A page of plays of the current version (`?part=plays&page=N`), rendered once per revision and page. */
  async function servePlays(request: FastifyRequest<{ Params: { id: string }; Querystring: PageQuery }>, reply: FastifyReply) {
    const { id } = request.params;
    const number = revisionParam(request.query.page ?? '1');
    if (number === null || number === 0) throw validationError('page must be a page number of plays: 1, 2, …');
    const doc = isMatchId(id) ? await currentPublicView(id) : null;
    if (doc === null) throw noMatch(id);
    const key = `${doc.id}\0${doc.revision}\0plays\0${number}`;
    let body = rendered.get(key);
    if (body === undefined) {
      const page = renderPlaysPage(viewOf(doc, await readPublicPayload(eventStore, doc)), number);
      if (page === null) throw notFound(`match "${id}" has no page ${number} of plays`);
      body = renderedBody(page);
      rendered.set(key, body);
    }
    reply.header('cache-control', 'no-cache');
    return sendRendered(request, reply, body, compress);
  }

  app.get<{ Params: { id: string }; Querystring: PageQuery }>('/match/:id', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    if (request.query.part === 'plays' && request.query.revision === undefined) return servePlays(request, reply);
    if (request.query.revision === undefined) return serveCurrent(request, reply, request.query.part === 'main' ? 'main' : 'page');
    const revision = revisionParam(request.query.revision);
    if (!isMatchId(id)) throw noMatch(id);
    if (revision === null) throw notFound(`match "${id}" has no revision ${request.query.revision}`);
    const old = await readMatchAt(eventStore, id, revision);
    return renderMatchPage({
      id,
      createdAt: old.created.recordedAt,
      updatedAt: old.version.recordedAt,
      protected: old.created.content.protection === 'protected',
      revision: old.version.revision,
      publicUrl: matchUrl(id),
      summary: summarizeMatch(JSON.parse(old.version.content.payloadText)),
      asOf: { revision: old.version.revision, latestRevision: old.head },
    });
  });

  // Only the widget may be framed, by any site: its own CSP says so, without X-Frame-Options.
  app.get<{ Params: { id: string }; Querystring: PageQuery }>('/match/:id/embed', { schema: { hide: true } }, async (request, reply) => {
    allowFraming(reply);
    reply.header('content-security-policy', EMBED_CSP);
    return serveCurrent(request, reply, request.query.part === 'main' ? 'embedMain' : 'embed');
  });

  const qrCodes = createRenderedCache(200);
  app.get<{ Params: { id: string } }>('/match/:id/qr.svg', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    if (!isMatchId(id) || (await currentPublicView(id)) === null) throw noMatch(id);
    let body = qrCodes.get(id);
    if (body === undefined) {
      // Loaded on the first QR code (~10 MB resident), not at start.
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(matchUrl(id), { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
      body = renderedBody(svg, 'image/svg+xml');
      qrCodes.set(id, body);
    }
    reply.header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return sendRendered(request, reply, body, compress);
  });

  app.get<{ Params: { id: string }; Querystring: PageQuery }>('/match/:id/history', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    const order = request.query.order === 'oldest' ? 'oldest' : 'newest';
    const from = revisionParam(request.query.from);
    if (!isMatchId(id)) throw noMatch(id);
    const page = await readMatchHistory(readModel, id, { order, limit: 50, ...(from === null ? {} : { from }) });
    const current = await readPublicMatch(readModel, eventStore, id);
    return renderHistoryPage({ id, order, page, summary: summarizeMatch(current === null ? null : JSON.parse(current.payload)) });
  });
};
