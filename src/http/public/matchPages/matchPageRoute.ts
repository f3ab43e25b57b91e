import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../../domain/errors.js';
import { isMatchId } from '../../../domain/matchId.js';
import { readErasure } from '../../../../projections/publicView.js';
import { oldVersionBody, oldVersionCaching } from '../../oldVersionBodies.js';
import { cachedBody, sendRendered } from '../../renderedPages.js';
import { renderedKeys } from '../../renderedKeys.js';
import { MatchPageQuery } from '../pageSchemas.js';
import { renderPlaysPage } from '../views/matchPage.js';
import { serveCurrent } from './currentRenderings.js';
import type { MatchPageContext } from './matchPageContext.js';

type PageRequest = FastifyRequest<{ Params: { id: string }; Querystring: Static<typeof MatchPageQuery> }>;

const throwNotFound = (message: string): never => {
  throw notFound(message);
};

/** A page of plays of the current version (`?part=plays&page=N`), rendered once per revision and page. */
async function servePlays(ctx: MatchPageContext, request: PageRequest, reply: FastifyReply) {
  const { id } = request.params;
  const number = request.query.page ?? 1;
  const doc = isMatchId(id) ? await ctx.currentPublicView(id) : null;
  if (doc === null) throw await ctx.noMatch(id);
  // A page past the last is kept as its 404 page, like a failed render: asking again costs nothing.
  const privacy = await ctx.privacyOfDoc(doc);
  const body = await cachedBody(request, ctx.cache, renderedKeys.plays(doc.id, doc.revision, number, { privacy }), async () => {
    const summary = await ctx.summaries.current(doc);
    return ctx.guarded(
      request,
      () =>
        renderPlaysPage(ctx.viewOf(doc, summary(), false, privacy, ctx.matchUrl(doc.id)), number) ??
        throwNotFound(`match "${id}" has no page ${number} of plays`),
    );
  });
  reply.header('cache-control', 'no-cache');
  return sendRendered(request, reply, body, ctx.compress);
}

/**
 * An old version: what the log held at `revision`, rendered once per version it resolves to
 * (src/http/oldVersionBodies.ts). An erased match answers 410 before anything kept is looked at.
 */
async function serveRevision(ctx: MatchPageContext, request: PageRequest, reply: FastifyReply, revision: number) {
  const { id } = request.params;
  const current = isMatchId(id) ? await ctx.currentPublicView(id) : null;
  if (current === null || (await readErasure(ctx.readModel, id)) !== null) throw await ctx.noMatch(id);
  const privacy = await ctx.privacyOfDoc(current);
  const variant = { privacy, base: ctx.baseOf(request) };
  const { body, version } = await oldVersionBody(request, ctx, 'page', id, revision, variant, async (old) => {
    const summary = await ctx.summaries.summaryAt(id, old.version.revision, () => old.version.content.payloadText);
    return ctx.rendered(request, 'page', () => ({
      id,
      createdAt: old.created.recordedAt,
      updatedAt: old.version.recordedAt,
      protected: old.created.content.protection === 'protected',
      revision: old.version.revision,
      publicUrl: ctx.urlFor(request, id),
      summary: ctx.shown(summary(), privacy),
      asOf: { revision: old.version.revision, latestRevision: old.head },
    }));
  });
  oldVersionCaching(reply, version, current.revision, privacy !== null);
  return sendRendered(request, reply, body, ctx.compress);
}

/** The match page (`/match/:id`): the current version, its live part (`?part=main`), a page of its plays, or an old version (`?revision=N`). */
export const matchPageRoute: FastifyPluginAsync<MatchPageContext> = async (app, ctx) => {
  app.get<{ Params: { id: string }; Querystring: Static<typeof MatchPageQuery> }>(
    '/match/:id',
    { schema: { hide: true, querystring: MatchPageQuery } },
    async (request, reply) => {
      if (request.query.revision !== undefined) return serveRevision(ctx, request, reply, request.query.revision);
      if (request.query.part === 'plays') return servePlays(ctx, request, reply);
      return serveCurrent(ctx, request, reply, request.query.part === 'main' ? 'main' : 'page');
    },
  );
};
