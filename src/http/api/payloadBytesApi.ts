import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { readErasure, readPublicPayload, readPublicView } from '../../../projections/publicView.js';
import { erasedNotice, forbidden, gone, notFound } from '../../domain/errors.js';
import { decodeMatchEvent } from '../../domain/matchEvents.js';
import { matchStreamId } from '../../domain/matchId.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { JSON_TYPE } from './logProofApi.js';
import { PayloadQuery } from './logSchemas.js';
import { errorResponses, MatchParams } from './schemas.js';

interface PayloadBytesDeps {
  readModel: ReadModelReader;
  eventStore: Pick<EventStore, 'readStream'>;
  /** A private team's exact payload bytes are for its write token's holder (docs/public-pages.md). */
  privacy: MatchPrivacyReader;
}

/** A version's exact payload bytes and salt, which its log entry commits to (./logApi.ts). */
export const payloadBytesApi: FastifyPluginAsyncTypebox<PayloadBytesDeps> = async (app, { readModel, eventStore, privacy }) => {
  /**
   * Refuses an anonymous read of the exact bytes of a match whose team names its players by a
   * privacy level: the team its current version syncs into. When the log lost that version (an
   * auditor is then told which entry is missing, not that every entry fails), the version asked
   * for decides.
   */
  async function refusePrivateBytes(id: string, presentedToken: string | string[] | undefined, asked: { revision: number; text: string }) {
    const doc = await readPublicView(readModel, id);
    const byAsked = () => privacy.privacyOf(id, asked.revision, () => asked.text);
    const level = doc === null ? null : await privacy.privacyOf(id, doc.revision, () => readPublicPayload(eventStore, doc)).catch(byAsked);
    if (level === null || (await privacy.holdsWriteToken(id, presentedToken))) return;
    throw forbidden(
      `the team of match "${id}" shows its players by a privacy level: its exact payload bytes are for the holder of its write token ` +
        '(send it in X-Write-Token); GET /api/matches/:id gives the payload as the public sees it',
    );
  }

  const config = { rateLimit: false };

  app.get(
    '/api/matches/:id/payload',
    {
      config,
      compress: false,
      schema: {
        operationId: 'getMatchPayload',
        tags: ['log'],
        summary: "A version's exact payload bytes and salt",
        description:
          'The payload exactly as stored, with its salt (base64) in Matchlog-Payload-Salt: ' +
          "SHA-256(salt ‖ these bytes) is the payloadSha256 of the version's log entry. " +
          'An empty salt for versions stored before salts. 410 once the match is erased. 403 when the team the match syncs into shows its players ' +
          "by a privacy level (docs/public-pages.md), unless the request carries the match's X-Write-Token.",
        params: MatchParams,
        querystring: PayloadQuery,
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { revision } = request.query;
      const [event] = await eventStore.readStream(matchStreamId(id), { fromRevision: revision, maxCount: 1 });
      if (event?.revision !== revision || (event.type !== 'MatchCreated' && event.type !== 'MatchReplaced'))
        throw notFound(`match "${id}" has no version at revision ${revision}`);
      const erasure = await readErasure(readModel, id);
      if (event.erased || erasure !== null) throw gone(erasedNotice(id, erasure?.erasedAt ?? event.recordedAt));
      const version = decodeMatchEvent(event.type, event.data)!;
      await refusePrivateBytes(id, request.headers['x-write-token'], { revision, text: version.data.payload });
      return reply
        .type(JSON_TYPE)
        .header('matchlog-payload-salt', version.data.payloadSalt ?? '')
        .header('cache-control', 'no-cache')
        .send(version.data.payload);
    },
  );
};
