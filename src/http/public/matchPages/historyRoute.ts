import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { isMatchId, matchStreamId } from '../../../domain/matchId.js';
import { privateDiff, replacementsOf } from '../../../domain/playerPrivacy.js';
import { readMatchHistory } from '../../../history/historyQueries.js';
import { leavesOfStream } from '../../../history/logProofs.js';
import { HistoryPageQuery } from '../pageSchemas.js';
import { renderHistoryPage } from '../views/historyPage.js';
import type { MatchPageContext } from './matchPageContext.js';

/**
 * A match's readable timeline (`/match/:id/history`), 50 events a page. It needs only the team
 * names of the current version, which the public view keeps: no payload is read.
 */
export const historyRoute: FastifyPluginAsync<MatchPageContext> = async (app, ctx) => {
  app.get<{ Params: { id: string }; Querystring: Static<typeof HistoryPageQuery> }>(
    '/match/:id/history',
    { schema: { hide: true, querystring: HistoryPageQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const { order = 'newest', from } = request.query;
      if (!isMatchId(id)) throw await ctx.noMatch(id);
      const page = await readMatchHistory(ctx.readModel, id, { order, limit: 50, ...(from === undefined ? {} : { from }) });
      const revisions = page.entries.map((entry) => entry.revision);
      const logIndexes =
        revisions.length === 0
          ? new Map<number, number>()
          : await leavesOfStream(ctx.readModel, matchStreamId(id), Math.min(...revisions), Math.max(...revisions));
      const doc = await ctx.currentPublicView(id);
      const privacy = doc === null ? null : await ctx.privacyOfDoc(doc);
      const replacements = doc === null || privacy === null ? [] : replacementsOf((await ctx.summaries.current(doc))(), privacy);
      const entries = page.entries.map((entry) => (entry.diff === null ? entry : { ...entry, diff: privateDiff(entry.diff, replacements) }));
      if (privacy !== null) reply.header('cache-control', 'no-cache');
      return renderHistoryPage({ id, order, page: { ...page, entries }, teams: await ctx.summaries.teamsOf(doc), logIndexes });
    },
  );
};
