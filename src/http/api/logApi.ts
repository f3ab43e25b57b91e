import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { erasedNotice, forbidden, gone, notFound, unavailable, validationError } from '../../domain/errors.js';
import { readErasure, readPublicPayload, readPublicView } from '../../../projections/publicView.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { decodeMatchEvent } from '../../domain/matchEvents.js';
import { matchStreamId } from '../../domain/matchId.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import type { CheckpointSigner } from '../../history/checkpointSigner.js';
import type { CosignedCheckpoint } from '../../history/cosignedCheckpoints.js';
import { type LogProofs, readLeaf, readTreeHead } from '../../history/logProofs.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { ConsistencyQuery, EntryParams, EntryProofResponse, InclusionQuery, PayloadQuery, ProofResponse } from './logSchemas.js';
import { MatchParams, errorResponses } from './schemas.js';

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

/** Seconds a client waits before asking again for a cosigned checkpoint the witnesses have not given yet. */
const COSIGNING_RETRY_AFTER = 2;

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const base64 = (hashes: Buffer[]) => ({ hashes: hashes.map((hash) => hash.toString('base64')) });

/**
 * The transparency log (docs/auditing.md): signed checkpoints, entries byte for byte, RFC 6962
 * proofs, and each version's exact payload with its salt, so that anyone can check what the
 * log holds without trusting this server. Public, like the matches.
 */
export const logApi: FastifyPluginAsyncTypebox<LogApiDeps> = async (app, { readModel, proofs, eventStore, checkpoints, verifierKey, witnessed, privacy }) => {
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

  /** The newest checkpoint the witnesses' quorum cosigned; 503 before the first. */
  function newestCosigned(): CosignedCheckpoint {
    const newest = witnessed?.newest() ?? null;
    if (newest === null) throw unavailable("no checkpoint has been cosigned by the log's witnesses yet", COSIGNING_RETRY_AFTER);
    return newest;
  }

  async function headOfAtLeast(size: number, what: string) {
    const head = await readTreeHead(readModel);
    if (size > head.size) throw validationError(`${what} ${size} is beyond the log's ${head.size} entries`);
    return head;
  }

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
      const note = witnessed === null ? checkpoints.latest(await readTreeHead(readModel)) : newestCosigned().note;
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

  app.get(
    '/api/log/entries/:index/proof',
    {
      config,
      schema: {
        operationId: 'getLogEntryProof',
        tags: ['log'],
        summary: "An entry's proof in the newest checkpoint",
        description:
          "The newest checkpoint (with witnesses: the newest their quorum cosigned) and the entry's inclusion proof in it: " +
          "what a receipt's proofUrl names. 503 with Retry-After while no cosigned checkpoint includes the entry yet.",
        params: EntryParams,
        response: { 200: EntryProofResponse, ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const { index } = request.params;
      const head = await readTreeHead(readModel);
      if (index >= head.size) throw notFound(`the log has no entry ${index} (it has ${head.size})`);
      if (witnessed === null) return { checkpoint: checkpoints.latest(head), inclusionProof: base64(await proofs.inclusionProof(index, head.size)).hashes };
      const cosigned = newestCosigned();
      if (index >= cosigned.size)
        throw unavailable(`entry ${index} is not in a cosigned checkpoint yet (the newest has ${cosigned.size} entries)`, COSIGNING_RETRY_AFTER);
      return { checkpoint: cosigned.note, inclusionProof: base64(await proofs.inclusionProof(index, cosigned.size)).hashes };
    },
  );

  app.get(
    '/api/log/proof/inclusion',
    {
      config,
      schema: {
        operationId: 'getInclusionProof',
        tags: ['log'],
        summary: 'Inclusion proof of a leaf in the tree of a size',
        querystring: InclusionQuery,
        response: { 200: ProofResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { index, size } = request.query;
      await headOfAtLeast(size, 'size');
      if (index >= size) throw validationError(`index ${index} is not in a tree of ${size} entries`);
      return base64(await proofs.inclusionProof(index, size));
    },
  );

  app.get(
    '/api/log/proof/consistency',
    {
      config,
      schema: {
        operationId: 'getConsistencyProof',
        tags: ['log'],
        summary: 'Consistency proof between two tree sizes',
        querystring: ConsistencyQuery,
        response: { 200: ProofResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      if (from > to) throw validationError(`from (${from}) must not be beyond to (${to})`);
      await headOfAtLeast(to, 'to');
      return base64(await proofs.consistencyProof(from, to));
    },
  );

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
