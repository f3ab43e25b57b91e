import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isMatchId } from '../../../domain/matchId.js';
import type { MatchPrivacy } from '../../../domain/playerPrivacy.js';
import { cachedBody, type RenderedBody, renderedBody, sendRendered } from '../../renderedPages.js';
import { renderedKeys } from '../../renderedKeys.js';
import { CardQuery } from '../pageSchemas.js';
import { isQuiet, shownStatus } from '../views/matchStatus.js';
import { shareCardPng, shareCardSvg } from '../views/shareCard.js';
import type { MatchPageContext } from './matchPageContext.js';
import type { SummaryOf } from './matchSummaries.js';

/** A card as a kept PNG body, drawn once per key. */
function cardBody(
  ctx: MatchPageContext,
  request: FastifyRequest,
  key: string,
  privacy: MatchPrivacy | null,
  draw: () => Promise<{ summary: SummaryOf; quiet: boolean; old: boolean }>,
) {
  return cachedBody(request, ctx.cache, key, async () => {
    const { summary: summaryOf, quiet, old } = await draw();
    const summary = ctx.shown(summaryOf(), privacy);
    const png = await shareCardPng(shareCardSvg(summary, shownStatus(summary.status, { quiet, old })));
    return { ...renderedBody('', 'image/png'), bytes: png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 22)}"` };
  });
}

/**
 * The link preview image (og:image): the version a page shows (`?revision=N`, else the current
 * one) as a PNG card, made once per revision and kept with the pages.
 */
export const cardRoute: FastifyPluginAsync<MatchPageContext> = async (app, ctx) => {
  app.get<{ Params: { id: string }; Querystring: Static<typeof CardQuery> }>(
    '/match/:id/card.png',
    { schema: { hide: true, querystring: CardQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const doc = isMatchId(id) ? await ctx.currentPublicView(id) : null;
      if (doc === null) throw await ctx.noMatch(id);
      const asked = request.query.revision ?? doc.revision;
      const privacy = await ctx.privacyOfDoc(doc);
      let body: RenderedBody;
      if (asked === doc.revision) {
        const quiet = isQuiet(doc.updatedAt, Date.now());
        body = await cardBody(ctx, request, renderedKeys.card(doc.id, doc.revision, { quiet, privacy }), privacy, async () => ({
          summary: await ctx.summaries.current(doc),
          quiet,
          old: false,
        }));
      } else {
        const old = await ctx.cache.oldVersions.read(ctx.eventStore, request.ip, id, asked);
        body = await cardBody(ctx, request, renderedKeys.oldCard(id, old.version.revision, { privacy }), privacy, async () => ({
          summary: await ctx.summaries.summaryAt(id, old.version.revision, () => old.version.content.payloadText),
          quiet: false,
          old: true,
        }));
      }
      // Previews fetch the card once; each page names its revision's card, so a later version is a new address.
      reply.header('cache-control', 'public, max-age=300').header('content-security-policy', "default-src 'none'");
      return sendRendered(request, reply, body, false);
    },
  );
};
