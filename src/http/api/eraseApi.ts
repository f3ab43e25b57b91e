import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { MatchCommands } from '../../commands/matchCommands.js';
import { ERASE_REASON_MAX } from '../../domain/match.js';
import { matchStreamId } from '../../domain/matchId.js';
import type { Receipts } from '../../history/logReceipts.js';
import type { ReadModelStore } from '../../readmodel/readModel.js';
import { classifyClientAddress } from '../clientAddress.js';
import { appendErasure, reasonDigest } from '../../platform/erasureLedger.js';
import { Receipt } from './logSchemas.js';
import { type TokenFailureThrottle, throttledTokenCheck } from './tokenFailures.js';
import { MatchParams, errorResponses } from './schemas.js';

export interface EraseApiDeps {
  matches: MatchCommands;
  receipts: Receipts;
  /** Where erasures are recorded outside the log, for a restore to re-apply (ERASURE_LEDGER; docs/operations.md). */
  erasureLedger: string;
  /** Lets go of what this process keeps of the match (src/http/erasureSweep.ts). */
  forgetErased: (matchId: string) => void;
  readModel: Pick<ReadModelStore, 'dropDeletedBytes'>;
  /** The throttle uploads share (TOKEN_FAILURE_LIMIT): a wrong token costs the same budget whatever the method. */
  tokenFailures: TokenFailureThrottle | null;
}

const EraseBody = Type.Union([
  Type.Object(
    { reason: Type.Optional(Type.String({ minLength: 1, maxLength: ERASE_REASON_MAX, description: 'Why; kept in the log, never shown publicly.' })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

const EraseResponse = Type.Object({
  id: Type.String(),
  erased: Type.Literal(true),
  receipt: Receipt,
});

const DEFAULT_REASON = 'erased by the holder of its write token (DELETE /api/matches/:id)';

/**
 * Erasure through the API (docs/auditing.md): only a protected match, with its X-Write-Token
 * (anyone holds an unprotected match's id; its erasure is the operator's: matchlog erase).
 */
export const eraseApi: FastifyPluginAsyncTypebox<EraseApiDeps> = async (app, { matches, receipts, forgetErased, readModel, tokenFailures, erasureLedger }) => {
  app.delete(
    '/api/matches/:id',
    {
      schema: {
        operationId: 'eraseMatch',
        tags: ['matches'],
        summary: 'Erase a protected match for good',
        description:
          'Needs the X-Write-Token the match was created with, at least 22 characters (128 random bits); an unprotected match, or one protected ' +
          "with a shorter token, cannot be erased through the API (403: ask the operator). Wrong tokens share the uploads' budget " +
          '(TOKEN_FAILURE_LIMIT, then 429), and erasures count as writes (WRITE_RATE_LIMIT). ' +
          "Every version's payload and salt leave the log and every read model; " +
          'a MatchErased event with the reason is appended, and the match answers 410 from then on. ' +
          'Its log entries (salted digests only) stay, so every checkpoint and proof given before still verifies. Answers a receipt of the MatchErased entry.',
        params: MatchParams,
        headers: Type.Object({ 'x-write-token': Type.Optional(Type.String()) }),
        body: Type.Optional(EraseBody),
        security: [{ writeToken: [] }],
        response: { 200: EraseResponse, ...errorResponses(400, 403, 404, 409, 410, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const writeToken = request.headers['x-write-token'] ?? null;
      const reason = request.body?.reason ?? DEFAULT_REASON;
      const erased = await throttledTokenCheck(tokenFailures, { address: request.ip, matchId: id, token: writeToken }, () =>
        matches.erase({
          matchId: id,
          reason,
          operator: false,
          writeToken,
          requestId: request.id,
          clientAddressClass: classifyClientAddress(request.ip),
        }),
      );
      // Done: the ledger only lets a restore erase it again; a failure to record it is the operator's to see, not the client's.
      try {
        appendErasure(erasureLedger, { matchId: id, erasedAt: new Date().toISOString(), reasonSha256: reasonDigest(reason), by: 'api' });
      } catch (error) {
        request.log.error(
          { err: error, erasureLedger, matchId: id },
          'erased, but not recorded in the erasure ledger: add it by hand, or a restore may bring it back',
        );
      }
      forgetErased(id);
      await readModel.dropDeletedBytes();
      return { id, erased: true as const, receipt: await receipts.receiptOf(matchStreamId(id), erased.revision) };
    },
  );
};
