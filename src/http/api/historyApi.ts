import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { describeDiff } from '../../domain/matchDiff.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { type HistoryEntry, readMatchHistory } from '../../history/historyQueries.js';
import { leavesOfStream } from '../../history/logProofs.js';
import { matchStreamId } from '../../domain/matchId.js';
import { privateDiff } from '../../domain/playerPrivacy.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { HistoryQuerySchema, HistoryResponse, type HistoryEntrySchema, MatchParams, errorResponses } from './schemas.js';

/** Every history response stays under this; a page ends early to keep to it. */
export const HISTORY_RESPONSE_BYTES = 1024 * 1024;

function entryView(entry: HistoryEntry, versionUrl: (revision: number) => string): Static<typeof HistoryEntrySchema> {
  const { content, diff, details, ...event } = entry;
  return {
    ...event,
    ...(content
      ? {
          via: content.via,
          ...(content.protection ? { protection: content.protection } : {}),
          // The payload itself is one request away: entries stay small whatever the match's size.
          version: versionUrl(entry.revision),
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
export const historyApi: FastifyPluginAsyncTypebox<{ readModel: ReadModelReader; matchUrl: (id: string) => string; privacy: MatchPrivacyReader }> = async (
  app,
  { readModel, matchUrl, privacy },
) => {
  app.get(
    '/api/matches/:id/history',
    {
      schema: {
        tags: ['history'],
        operationId: 'getMatchHistory',
        summary: 'Every event of a match, with each version and what changed',
        description:
          'Paginated: `order` oldest (default) or newest first, `limit` 1-100, `from` the `next` of the previous page; ' +
          'a page also ends early to stay under 1 MiB. Entries carry what changed (diff) and where the full version is (`version`, i.e. ?revision=N). ' +
          'Rejected writes (403) are not in the log and never appear.',
        params: MatchParams,
        querystring: HistoryQuerySchema,
        response: { 200: HistoryResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { order = 'oldest', limit = 20, from } = request.query;
      const page = await readMatchHistory(readModel, id, { order, limit, ...(from === undefined ? {} : { from }) });
      const versionUrl = (revision: number) => `/api/matches/${encodeURIComponent(id)}?revision=${revision}`;
      const revisions = page.entries.map((entry) => entry.revision);
      // Each event's leaf in the transparency log, where it has one yet.
      const leaves =
        revisions.length === 0 ? new Map<number, number>() : await leavesOfStream(readModel, matchStreamId(id), Math.min(...revisions), Math.max(...revisions));
      // Anonymous readers see the diffs of a private team's match with its players named by its privacy level.
      const replacements = await privacy.anonymousReplacements(id, request.headers['x-write-token']);
      const entries: Static<typeof HistoryEntrySchema>[] = [];
      let bytes = 4096;
      for (const entry of page.entries) {
        const logIndex = leaves.get(entry.revision);
        const shown = entry.diff === null || replacements.length === 0 ? entry : { ...entry, diff: privateDiff(entry.diff, replacements) };
        const view = { ...entryView(shown, versionUrl), ...(logIndex === undefined ? {} : { logIndex }) };
        bytes += Buffer.byteLength(JSON.stringify(view));
        if (bytes > HISTORY_RESPONSE_BYTES && entries.length > 0) break;
        entries.push(view);
      }
      const next = entries.length < page.entries.length ? page.entries[entries.length]!.revision : page.next;
      return { id, url: matchUrl(id), protected: page.protected, head: page.head, next, entries };
    },
  );
};
