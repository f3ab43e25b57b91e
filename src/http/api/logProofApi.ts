import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, unavailable, validationError } from '../../domain/errors.js';
import type { CheckpointSigner } from '../../history/checkpointSigner.js';
import type { CosignedCheckpoint } from '../../history/cosignedCheckpoints.js';
import { type LogProofs, readTreeHead } from '../../history/logProofs.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { ConsistencyQuery, EntryParams, EntryProofResponse, InclusionQuery, ProofResponse } from './logSchemas.js';
import { errorResponses } from './schemas.js';

/** Seconds a client waits before asking again for a cosigned checkpoint the witnesses have not given yet. */
const COSIGNING_RETRY_AFTER = 2;

export const JSON_TYPE = 'application/json; charset=utf-8';
const base64 = (hashes: Buffer[]) => ({ hashes: hashes.map((hash) => hash.toString('base64')) });

type Witnessed = { newest(): CosignedCheckpoint | null } | null;

/** The newest checkpoint the witnesses' quorum cosigned; 503 before the first. */
export function newestCosigned(witnessed: Witnessed): CosignedCheckpoint {
  const newest = witnessed?.newest() ?? null;
  if (newest === null) throw unavailable("no checkpoint has been cosigned by the log's witnesses yet", COSIGNING_RETRY_AFTER);
  return newest;
}

interface LogProofDeps {
  readModel: ReadModelReader;
  proofs: LogProofs;
  checkpoints: CheckpointSigner;
  witnessed: Witnessed;
}

/** The transparency log's RFC 6962 proofs (./logApi.ts): an entry's in the newest checkpoint, inclusion, consistency. */
export const logProofApi: FastifyPluginAsyncTypebox<LogProofDeps> = async (app, { readModel, proofs, checkpoints, witnessed }) => {
  const config = { rateLimit: false };

  async function headOfAtLeast(size: number, what: string) {
    const head = await readTreeHead(readModel);
    if (size > head.size) throw validationError(`${what} ${size} is beyond the log's ${head.size} entries`);
    return head;
  }

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
      const cosigned = newestCosigned(witnessed);
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
};
