import type { FastifyPluginAsync } from 'fastify';
import { pageErrorHandler } from '../errorHandling.js';
import { LIVE_PAGE_CSP } from '../views/layout.js';
import { cardRoute } from './matchPages/cardRoute.js';
import { embedRoute } from './matchPages/embedRoute.js';
import { historyRoute } from './matchPages/historyRoute.js';
import { createMatchPageContext, type MatchPageDeps } from './matchPages/matchPageContext.js';
import { matchPageRoute } from './matchPages/matchPageRoute.js';
import { qrRoute } from './matchPages/qrRoute.js';
import { renderMatchErrorPage } from './views/matchErrorPage.js';

/**
 * The public pages of a match: server-rendered HTML that works without JavaScript; one
 * same-origin script adds live updates. Every page is rendered once per revision, the current
 * and the old ones alike, and kept as bytes (and compressed bytes) with an ETag for conditional
 * GETs; a render that fails is kept as its error page, so repeating the request costs nothing.
 * One plugin per resource (matchPages/: the page, the embed, the card, the QR code, the
 * history), sharing one context: the summaries, the address handed out, the privacy shown.
 */
export const matchPage: FastifyPluginAsync<MatchPageDeps> = async (app, deps) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', LIVE_PAGE_CSP).header('x-content-type-options', 'nosniff');
  });
  // The app's one error mapping, rendered as a page (a missing match is the HTML 404).
  app.setErrorHandler(pageErrorHandler(renderMatchErrorPage));
  const ctx = createMatchPageContext(deps);
  for (const resource of [matchPageRoute, embedRoute, cardRoute, qrRoute, historyRoute]) await app.register(resource, ctx);
};
