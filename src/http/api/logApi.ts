import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../domain/errors.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import type { CheckpointSigner } from '../../history/checkpointSigner.js';
import type { CosignedCheckpoint } from '../../history/cosignedCheckpoints.js';
import { type LogProofs, readLeaf, readTreeHead } from '../../history/logProofs.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { JSON_TYPE, logProofApi, newestCosigned } from './logProofApi.js';
import { EntryParams } from './logSchemas.js';
import { payloadBytesApi } from './payloadBytesApi.js';
import { errorResponses } from './schemas.js';

export interface LogApiDeps {
  readModel: ReadModelReader;
  proofs: LogProofs;
  eventStore: Pick<EventStore, 'readStream'>;
  checkpoints: CheckpointSigner;
  /** The verifier key string of the checkpoint signer. */
  verifierKey: string;
  /** With witnesses (LOG_WITNESSES): the newest checkpoint their quorum cosigned, which is then the one answered. */
  witnessed: { newest(): CosignedCheckpoint | null } | null;
  /** A private team's exact payload bytes are for its write token's holder (docs/public-pages.md). */
  privacy: MatchPrivacyReader;
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * The transparency log (docs/auditing.md): signed checkpoints, entries byte for byte, RFC 6962
 * proofs, and each version's exact payload with its salt, so that anyone can check what the
 * log holds without trusting this server. Public, like the matches.
 */
export const logApi: FastifyPluginAsyncTypebox<LogApiDeps> = async (app, { readModel, proofs, eventStore, checkpoints, verifierKey, witnessed, privacy }) => {
  const config = { rateLimit: false };

  app.get(
    '/api/log/checkpoint',
    {
      config,
      schema: {
        operationId: 'getLogCheckpoint',
        tags: ['log'],
        summary: "The log's latest signed checkpoint",
        description:
          'A C2SP signed note whose body is a C2SP tlog-checkpoint (origin, tree size, base64 root hash), ' +
          'signed with Ed25519 by the key GET /api/log/key names. With witnesses (LOG_WITNESSES): the newest checkpoint ' +
          "their quorum cosigned, with their C2SP cosignature/v1 lines after the log's signature (503 before the first).",
        produces: ['text/plain'],
        response: { 200: Type.String(), ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      // While the tree is behind a larger one signed (a start-over), that one is answered: never a smaller tree.
      const note = witnessed === null ? checkpoints.latest(await readTreeHead(readModel)) : newestCosigned(witnessed).note;
      return reply.type(TEXT).header('cache-control', 'no-cache').send(note);
    },
  );

  app.get(
    '/api/log/key',
    {
      config,
      schema: {
        operationId: 'getLogKey',
        tags: ['log'],
        summary: "The checkpoints' verifier key",
        description: "As golang.org/x/mod/sumdb/note's NewVerifier reads it: <name>+<8 hex digits>+<base64 key>.",
        produces: ['text/plain'],
        response: { 200: Type.String() },
      },
    },
    async (_request, reply) => reply.type(TEXT).send(`${verifierKey}\n`),
  );

  app.get(
    '/api/log/entries/:index',
    {
      config,
      schema: {
        operationId: 'getLogEntry',
        tags: ['log'],
        summary: 'One entry of the log, byte for byte',
        description:
          "The leaf's entry: canonical JSON (matchId or clubId, revision, type, recordedAt, payloadSha256 or dataSha256). " +
          'Its leaf hash is SHA-256(0x00 ‖ these bytes).',
        params: EntryParams,
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const leaf = await readLeaf(readModel, request.params.index);
      const head = await readTreeHead(readModel);
      if (leaf === null || leaf.index >= head.size) throw notFound(`the log has no entry ${request.params.index} (it has ${head.size})`);
      return reply.type(JSON_TYPE).header('cache-control', 'public, max-age=31536000, immutable').send(leaf.entry);
    },
  );

  await app.register(logProofApi, { readModel, proofs, checkpoints, witnessed });
  await app.register(payloadBytesApi, { readModel, eventStore, privacy });
};
