import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MatchCommands } from '../../commands/matchCommands.js';
import { clubSyncTarget } from '../../domain/clubSync.js';
import { validationError } from '../../domain/errors.js';
import type { WriteVia } from '../../domain/matchEvents.js';
import { matchStreamId } from '../../domain/matchId.js';
import type { Receipts } from '../../history/logReceipts.js';
import { noteInAccessLog } from '../accessLog.js';
import { classifyClientAddress } from '../clientAddress.js';
import { CLUB_SYNC_HEADER, clubSyncHeader } from './clubSyncHeader.js';
import { errorResponses, MatchParams, MatchPayload, UploadResponse, WriteHeaders } from './schemas.js';
import { type TokenFailureThrottle, throttledTokenCheck } from './tokenFailures.js';

interface MatchUploadDeps {
  matches: MatchCommands;
  matchUrl: (id: string) => string;
  /** 429 after repeated 403s on one match from one address (TOKEN_FAILURE_LIMIT); null: off. */
  tokenFailures: TokenFailureThrottle | null;
  /** Receipts of writes from the transparency log (docs/auditing.md). */
  receipts: Receipts;
}

const CLUB_SYNC_DESCRIPTION =
  "Club sync: when the payload has clubId and teamId, players, stats and actions are copied into that club's dashboard, " +
  "authenticated by the club's app key in X-App-Key. A missing or invalid key is never an error: the match is saved either way, " +
  'and the response carries crmSync: "skipped_auth" exactly when the sync was skipped (CLUB_SYNC_ENFORCEMENT=enforce without a valid key, ' +
  'or a clubId or teamId that names no club or team of it). The Matchlog-Club-Sync response header (on every upload that names a club and team) ' +
  'says how the key was judged: processed (a valid key), flagged-no-key or flagged-bad-key (copied without a valid key and flagged in the dashboard), ' +
  'or skipped; the last three with "; reason=" missing_key, malformed_key, bad_key, no_such_club or no_such_team. ' +
  'Apps can use it to tell their user the key is mistyped, or to test a connection.';

/** The JSON API's uploads (./matchApi.ts): POST creates or upserts, PUT creates unprotected or replaces. */
export const matchUploadApi: FastifyPluginAsyncTypebox<MatchUploadDeps> = async (app, { matches, matchUrl, tokenFailures, receipts }) => {
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
};
