import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MatchCommands } from '../../commands/matchCommands.js';
import { erasedNotice, gone, notFound } from '../../domain/errors.js';
import { asJsonText, withPayload } from '../../domain/jsonText.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readErasure, readPublicPayload } from '../../../projections/publicView.js';
import type { CurrentPublicView } from '../publicViews.js';
import { cachedBody, notModified, type RenderedCache, renderedBody, sendRendered } from '../renderedPages.js';
import { oldVersionBody, oldVersionCaching } from '../oldVersionBodies.js';
import { renderedKeys } from '../renderedKeys.js';
import type { TokenFailureThrottle } from './tokenFailures.js';
import { matchUploadApi } from './matchUploadApi.js';
import type { Receipts } from '../../history/logReceipts.js';
import { type MatchPrivacy, privacyTag, privatePayloadText } from '../../domain/playerPrivacy.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { MatchParams, MatchView, RevisionQuery, errorResponses } from './schemas.js';

export interface MatchApiDeps {
  matches: MatchCommands;
  currentPublicView: CurrentPublicView;
  eventStore: EventStore;
  matchUrl: (id: string) => string;
  /** 429 after repeated 403s on one match from one address (TOKEN_FAILURE_LIMIT); null: off. */
  tokenFailures: TokenFailureThrottle | null;
  /** Answers kept as bytes, in the byte budget shared with the pages (PAGE_CACHE_BYTES). */
  cache: RenderedCache;
  /** Receipts of writes from the transparency log (docs/auditing.md). */
  receipts: Receipts;
  /** Where an erased match is recorded (its 410). */
  readModel: ReadModelReader;
  /** How the team a match syncs into lets its players be named to anonymous readers (src/http/matchPrivacy.ts). */
  privacy: MatchPrivacyReader;
}

/** With `?revision=N`: the revision of the match's current version, to tell an old version from it. */
const LATEST_REVISION_HEADER = 'matchlog-latest-revision';

/** The JSON API: upload (POST creates or upserts, PUT creates unprotected or replaces) and view. */
export const matchApi: FastifyPluginAsyncTypebox<MatchApiDeps> = async (
  app,
  { matches, currentPublicView, eventStore, matchUrl, tokenFailures, cache, receipts, readModel, privacy },
) => {
  /**
   * The privacy a read goes through: the team's, for anonymous readers; none for the holder of the
   * match's write token, who reads what it uploaded (docs/public-pages.md).
   */
  async function readerPrivacy(request: FastifyRequest, id: string, revision: number): Promise<MatchPrivacy | null> {
    const doc = await currentPublicView(id);
    const asked = doc === null ? null : await privacy.privacyOf(id, revision, () => readPublicPayload(eventStore, doc));
    return asked !== null && (await privacy.holdsWriteToken(id, request.headers['x-write-token'])) ? null : asked;
  }
  const shownPayload = (text: string, privacy: MatchPrivacy | null) => asJsonText(privacy === null ? text : privatePayloadText(text, privacy));

  const throwIfErased = async (id: string) => {
    const erased = await readErasure(readModel, id);
    if (erased !== null) throw gone(erasedNotice(id, erased.erasedAt));
  };
  await app.register(matchUploadApi, { matches, matchUrl, tokenFailures, receipts });

  const JSON_TYPE = 'application/json; charset=utf-8';

  /**
   * `?revision=N`: the version N resolves to, its answer kept per version and never naming the
   * head, so that it never changes (oldVersionCaching). What the current version is goes in
   * headers beside the kept body: its revision (Matchlog-Latest-Revision) and its address (Link).
   */
  async function serveOldVersion(request: FastifyRequest, reply: FastifyReply, id: string, revision: number) {
    await throwIfErased(id);
    const current = await currentPublicView(id);
    if (current === null) throw notFound(`no match with id "${id}"`);
    const shownAs = await readerPrivacy(request, id, current.revision);
    const { body, version } = await oldVersionBody(request, { cache, eventStore }, 'api', id, revision, { privacy: shownAs }, (old) =>
      cache.stage(() => {
        const meta = {
          id,
          url: matchUrl(id),
          createdAt: old.created.recordedAt,
          updatedAt: old.version.recordedAt,
          revision: old.version.revision,
          protected: old.created.content.protection === 'protected',
        };
        const etag = `"v${old.version.revision}${privacyTag(shownAs)}"`;
        return renderedBody(withPayload(meta, shownPayload(old.version.content.payloadText, shownAs)), JSON_TYPE, { etag });
      }),
    );
    reply.header(LATEST_REVISION_HEADER, String(current.revision)).header('link', `</api/matches/${encodeURIComponent(id)}>; rel="latest-version"`);
    oldVersionCaching(reply, version, current.revision, shownAs !== null);
    if (shownAs !== null) reply.header('vary', 'X-Write-Token');
    return sendRendered(request, reply, body, true);
  }

  /**
   * GET answers by match and revision, kept as UTF-8 bytes with their compressed copies: a
   * revision fixes the whole answer, so each is read from the log, encoded and compressed once.
   */
  app.get(
    '/api/matches/:id',
    {
      config: { rateLimit: false },
      // Sent as kept bytes, compressed once per answer: @fastify/compress must not compress them again.
      compress: false,
      schema: {
        tags: ['matches'],
        operationId: 'getMatch',
        summary: 'View a match',
        description:
          'The payload as last uploaded, with its metadata. No authentication. ' +
          'With ?revision=N, the match as it was at revision N, read from the log: the answer depends on the version alone ' +
          "(`Cache-Control: immutable` once a later version exists); the Matchlog-Latest-Revision header gives the current version's revision, " +
          'and Link (rel="latest-version") its address. Old revisions are read one at a time per client address, a few at a time in all: ' +
          'beyond, 429 or 503 with Retry-After. When the team the match syncs into shows its players by a privacy level (docs/public-pages.md), ' +
          "anonymous readers get the payload with those names replaced; the holder of the match's X-Write-Token gets it as uploaded.",
        params: MatchParams,
        querystring: RevisionQuery,
        response: { 200: MatchView, ...errorResponses(400, 404, 410, 429, 503) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { revision } = request.query;
      // Sent as bytes: widen the typed reply to say so.
      const untyped: FastifyReply = reply;
      if (revision !== undefined) return serveOldVersion(request, untyped, id, revision);
      const doc = await currentPublicView(id);
      if (doc === null) {
        await throwIfErased(id);
        throw notFound(`no match with id "${id}"`);
      }
      const shownAs = await readerPrivacy(request, doc.id, doc.revision);
      const etag = `"r${doc.revision}${privacyTag(shownAs)}"`;
      untyped.header('etag', etag).header('cache-control', 'no-cache');
      if (shownAs !== null) untyped.header('vary', 'X-Write-Token');
      if (notModified(request, etag)) return untyped.code(304).send();
      const body = await cachedBody(request, cache, renderedKeys.api(doc.id, doc.revision, { privacy: shownAs }), async () => {
        const meta = {
          id: doc.id,
          url: matchUrl(doc.id),
          createdAt: doc.createdAt,
          updatedAt: doc.updatedAt,
          revision: doc.revision,
          versions: doc.versions,
          protected: doc.protected,
        };
        // The payload text is sent as stored in the log, without a parse and re-serialise.
        return renderedBody(withPayload(meta, shownPayload(await readPublicPayload(eventStore, doc), shownAs)), JSON_TYPE, { etag });
      });
      return sendRendered(request, untyped, body, true);
    },
  );
};
