import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { describeDiff } from '../domain/matchDiff.js';
import type { EventStore } from '../eventstore/port.js';
import { type HistoryEntry, readMatchHistory } from '../history/matchHistory.js';
import { HistoryQuerySchema, HistoryResponse, type HistoryEntrySchema, MatchParams, errorResponses } from './schemas.js';

function entryView(entry: HistoryEntry): Static<typeof HistoryEntrySchema> {
  const { content, diff, details, ...event } = entry;
  return {
    ...event,
    ...(content
      ? {
          via: content.via,
          ...(content.protection ? { protection: content.protection } : {}),
          payload: JSON.parse(content.payloadText) as Record<string, unknown>,
          diff: diff ? { ...diff, summary: describeDiff(diff) } : null,
        }
      : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * The history of a match, from the log. Public, like the match itself: it shows only what
 * was public at the time (payloads, times, how each write came), never tokens or hashes.
 */
export const historyApi: FastifyPluginAsyncTypebox<{ eventStore: EventStore; matchUrl: (id: string) => string }> = async (app, { eventStore, matchUrl }) => {
  app.get(
    '/api/matches/:id/history',
    {
      schema: {
        tags: ['history'],
        summary: 'Every event of a match, with each version and what changed',
        description:
          'Paginated: `order` oldest (default) or newest first, `limit` 1-100, `from` the `next` of the previous page. ' +
          'Rejected writes (403) are not in the log and never appear.',
        params: MatchParams,
        querystring: HistoryQuerySchema,
        response: { 200: HistoryResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { order = 'oldest', limit = 20, from } = request.query;
      const page = await readMatchHistory(eventStore, id, { order, limit, ...(from === undefined ? {} : { from }) });
      return {
        id,
        url: matchUrl(id),
        protected: page.protected,
        head: page.head,
        next: page.next,
        entries: page.entries.map(entryView),
      };
    },
  );
};
