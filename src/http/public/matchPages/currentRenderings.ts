import type { FastifyReply, FastifyRequest } from 'fastify';
import { isMatchId } from '../../../domain/matchId.js';
import { cachedBody, type RenderedBody, sendRendered } from '../../renderedPages.js';
import { type PageRendering, renderedKeys } from '../../renderedKeys.js';
import { isQuiet } from '../views/matchStatus.js';
import type { MatchPageContext } from './matchPageContext.js';

/**
 * The current version, rendered once per revision (a page depends only on its document).
 * While the public view's checkpoint has not moved, no document changed, so a kept page is
 * served after one small checkpoint read instead of reading the match's document.
 */
async function current(ctx: MatchPageContext, request: FastifyRequest, id: string, rendering: PageRendering): Promise<RenderedBody | null> {
  const doc = await ctx.currentPublicView(id);
  if (doc === null) return null;
  // A "live" match with no upload for LIVE_WINDOW_MS is no longer shown live: one more render per match, keyed here.
  const quiet = isQuiet(doc.updatedAt, Date.now());
  const privacy = await ctx.privacyOfDoc(doc);
  const key = renderedKeys.page(doc.id, doc.revision, rendering, { quiet, privacy, base: ctx.baseOf(request) });
  return cachedBody(request, ctx.cache, key, async () => {
    const summary = await ctx.summaries.current(doc);
    return ctx.rendered(request, rendering, () => ctx.viewOf(doc, summary(), quiet, privacy, ctx.urlFor(request, doc.id)));
  });
}

/** A rendering of the current version (the page, its live part, the embed or its live part), revalidated every time. */
export async function serveCurrent(ctx: MatchPageContext, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, rendering: PageRendering) {
  const { id } = request.params;
  const body = isMatchId(id) ? await current(ctx, request, id, rendering) : null;
  if (body === null) throw await ctx.noMatch(id);
  // Revalidate every time: a live match changes from one minute to the next.
  reply.header('cache-control', 'no-cache');
  return sendRendered(request, reply, body, ctx.compress);
}
