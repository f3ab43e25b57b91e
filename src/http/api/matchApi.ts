import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MatchCommands } from '../../commands/matchCommands.js';
import { erasedNotice, gone, notFound, validationError } from '../../domain/errors.js';
import { asJsonText, withPayload } from '../../domain/jsonText.js';
import type { WriteVia } from '../../domain/matchEvents.js';
import { clubSyncTarget } from '../../domain/clubSync.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readErasure, readPublicPayload } from '../../../projections/publicView.js';
import type { CurrentPublicView } from '../publicViews.js';
import { noteInAccessLog } from '../accessLog.js';
import { classifyClientAddress } from '../clientAddress.js';
import { cachedBody, notModified, type RenderedCache, renderedBody, sendRendered } from '../renderedPages.js';
import { oldVersionBody, oldVersionCaching } from '../oldVersionBodies.js';
import { renderedKeys } from '../renderedKeys.js';
import { type TokenFailureThrottle, throttledTokenCheck } from './tokenFailures.js';
import { CLUB_SYNC_HEADER, clubSyncHeader } from './clubSyncHeader.js';
import type { Receipts } from '../../history/logReceipts.js';
import { matchStreamId } from '../../domain/matchId.js';
import { type MatchPrivacy, privacyTag, privatePayloadText } from '../../domain/playerPrivacy.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { MatchParams, MatchPayload, MatchView, RevisionQuery, UploadResponse, WriteHeaders, errorResponses } from './schemas.js';

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

const CLUB_SYNC_DESCRIPTION =
  "Club sync: when the payload has clubId and teamId, players, stats and actions are copied into that club's dashboard, " +
  "authenticated by the club's app key in X-App-Key. A missing or invalid key is never an error: the match is saved either way, " +
  'and the response carries crmSync: "skipped_auth" exactly when the sync was skipped (CLUB_SYNC_ENFORCEMENT=enforce without a valid key, ' +
  'or a clubId or teamId that names no club or team of it). The Matchlog-Club-Sync response header (on every upload that names a club and team) ' +
  'says how the key was judged: processed (a valid key), flagged-no-key or flagged-bad-key (copied without a valid key and flagged in the dashboard), ' +
  'or skipped; the last three with "; reason=" missing_key, malformed_key, bad_key, no_such_club or no_such_team. ' +
  'Apps can use it to tell their user the key is mistyped, or to test a connection.';

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
  async function upload(
    request: FastifyRequest,
    reply: FastifyReply,
    via: WriteVia,
    matchId: string,
    headers: { 'x-write-token'?: string; 'x-app-key'?: string },
  ): Promise<UploadResponse> {
    const raw = request.rawJson;
    if (raw === null) throw validationError('send the match as a JSON object');
    const presentedToken = headers['x-write-token'] ?? null;
    const result = await throttledTokenCheck(tokenFailures, { address: request.ip, matchId, token: presentedToken }, () =>
      matches.upload({
        via,
        matchId,
        payload: raw.text,
        // A body read on a helper thread is a stand-in here: it tells whether the payload names a club.
        ...(raw.parsed ? { body: request.body } : { namesClub: clubSyncTarget(request.body) !== null }),
        writeToken: presentedToken,
        appKey: headers['x-app-key'] ?? null,
        requestId: request.id,
        clientAddressClass: classifyClientAddress(request.ip),
      }),
    );
    if (!result.stored) noteInAccessLog(request, { upload: { matchId, revision: result.revision, stored: false } });
    if (result.stored && result.clubSync !== null) {
      const { type, data } = result.clubSync;
      noteInAccessLog(request, { clubSync: { outcome: type, clubId: data.clubId, teamId: data.teamId, reason: 'reason' in data ? data.reason : null } });
    }
    if (result.clubSync !== null) reply.header(CLUB_SYNC_HEADER, clubSyncHeader(result.clubSync));
    const streamId = matchStreamId(matchId);
    const logged =
      result.versionRevision !== null
        ? await receipts.receiptOf(streamId, result.versionRevision)
        : await receipts.receiptOfVersionAt(streamId, result.revision);
    // The salt stands the receipt alone: SHA-256(salt ‖ the uploaded bytes) is the entry's payloadSha256 (docs/auditing.md).
    const receipt = result.payloadSalt === null ? logged : { ...logged, payloadSalt: result.payloadSalt };
    // A missing or bad app key is never an error: the match is stored, the response says the sync was skipped.
    return result.syncSkipped ? { id: matchId, url: matchUrl(matchId), crmSync: 'skipped_auth', receipt } : { id: matchId, url: matchUrl(matchId), receipt };
  }

  app.post(
    '/api/matches',
    {
      // An upload's answer is ~1.5 KB: compressing it cost a live upload ~1 ms of CPU to save ~600 bytes (issue 60).
      compress: false,
      schema: {
        tags: ['matches'],
        operationId: 'postMatch',
        summary: 'Create or upsert a match',
        description:
          'Creates the match (id generated when omitted). With X-Write-Token on the creating POST the match is protected: ' +
          'later writes need the same token. POST with an existing id replaces the match under the same rules, so a retried POST is safe; ' +
          'an upload byte for byte the same as the stored one (with the same club sync outcome) is answered alike and stores no new version. ' +
          CLUB_SYNC_DESCRIPTION,
        body: MatchPayload,
        headers: WriteHeaders,
        // Each credential is optional ({}: none); together they are the write token and the club's key.
        security: [{}, { writeToken: [] }, { appKey: [] }, { writeToken: [], appKey: [] }],
        response: { 201: UploadResponse, ...errorResponses(400, 403, 413, 415, 429, 503, 507) },
      },
    },
    async (request, reply) => {
      const body = await upload(request, reply, 'POST', request.body.id ?? randomUUID(), request.headers);
      return reply.code(201).send(body);
    },
  );

  app.put(
    '/api/matches/:id',
    {
      compress: false,
      schema: {
        tags: ['matches'],
        operationId: 'putMatch',
        summary: 'Create (unprotected) or replace a match',
        description:
          'Replaces the match, or creates it unprotected when it does not exist (even with X-Write-Token). ' +
          'A protected match needs its X-Write-Token. Answers 200 in both cases. ' +
          CLUB_SYNC_DESCRIPTION,
        params: MatchParams,
        body: MatchPayload,
        headers: WriteHeaders,
        // Each credential is optional ({}: none); together they are the write token and the club's key.
        security: [{}, { writeToken: [] }, { appKey: [] }, { writeToken: [], appKey: [] }],
        response: { 200: UploadResponse, ...errorResponses(400, 403, 413, 415, 429, 503, 507) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (request.body.id !== undefined && request.body.id !== id) {
        throw validationError(`the body's id "${request.body.id}" differs from the id in the path "${id}"; send the same id or leave it out of the body`);
      }
      return upload(request, reply, 'PUT', id, request.headers);
    },
  );

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
