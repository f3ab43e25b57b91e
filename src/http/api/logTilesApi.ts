import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../domain/errors.js';
import { entryBundle, leavesPerNode, parseTilePath, TILE_HEIGHT, TILE_WIDTH, type TileAddress, tileWidthIn } from '../../domain/logTiles.js';
import { readTreeHead } from '../../history/logProofs.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { LOG_LEAVES, leafId } from '../../readmodel/transparencyLogDocs.js';
import { errorResponses } from './schemas.js';

export interface LogTilesApiDeps {
  readModel: Pick<ReadModelReader, 'get' | 'getMany'>;
}

/** A full tile never changes; a partial one is replaced by a wider one as the tree grows. */
const FULL = 'public, max-age=31536000, immutable';
const PARTIAL = 'public, max-age=10';

/** The leaf documents a tile is read from: the leaf each node ends at (a node's hash is stored with it). */
function leafIndexesOf({ level, index, width }: TileAddress): number[] {
  const first = index * TILE_WIDTH;
  if (level === 'entries') return Array.from({ length: width }, (_, i) => first + i);
  const span = leavesPerNode(level);
  return Array.from({ length: width }, (_, i) => (first + i + 1) * span - 1);
}

/**
 * The transparency log as C2SP tlog-tiles (docs/auditing.md, *Tiles*): hash tiles of height 8 and
 * entry bundles, read from the leaves the proofs use, so a client fetches 256 entries or hashes
 * in one request. A tile is served only up to the committed tree head.
 */
export const logTilesApi: FastifyPluginAsyncTypebox<LogTilesApiDeps> = async (app, { readModel }) => {
  app.get(
    '/api/log/tile/*',
    {
      config: { rateLimit: false },
      compress: false,
      schema: {
        operationId: 'getLogTile',
        tags: ['log'],
        summary: 'A C2SP tlog-tiles hash tile or entry bundle',
        description:
          '`<L>/<N>[.p/<W>]`: the hashes (32 bytes each) of up to 256 nodes of height 8·L; `entries/<N>[.p/<W>]`: up to 256 entries, ' +
          'each a big-endian uint16 length and its bytes. N is written in three-digit groups, all but the last prefixed with x ' +
          '(1234067: x001/x234/067). Full tiles are immutable; a partial one (.p/W, its first W) only until the tree fills it.',
        params: Type.Object({ '*': Type.String() }),
        // The tile's bytes; a refusal is the JSON error every route answers.
        response: {
          200: { description: 'The tile or bundle', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const path = request.params['*'];
      const address = parseTilePath(path);
      if (address === null) throw notFound(`"${path}" is not a tile (<L>/<N>[.p/<W>] or entries/<N>[.p/<W>], as C2SP tlog-tiles writes them)`);
      const head = await readTreeHead(readModel);
      if (tileWidthIn(head.size, address.level, address.index) < address.width) throw notFound(`the log's ${head.size} entries do not fill tile ${path} yet`);
      const indexes = leafIndexesOf(address);
      const leaves = await readModel.getMany(LOG_LEAVES, indexes.map(leafId));
      const leafAt = (index: number) => {
        const leaf = leaves.get(leafId(index));
        if (leaf === undefined) throw new Error(`the transparency log has no leaf ${index} below its head of ${head.size}`);
        return leaf;
      };
      const { level } = address;
      const body =
        level === 'entries'
          ? entryBundle(indexes.map((index) => leafAt(index).entry))
          : Buffer.concat(indexes.map((index) => Buffer.from(leafAt(index).hashes[TILE_HEIGHT * level]!, 'base64')));
      // Sent as bytes: widen the typed reply to say so.
      const untyped: FastifyReply = reply;
      return untyped
        .type('application/octet-stream')
        .header('cache-control', address.width === TILE_WIDTH ? FULL : PARTIAL)
        .send(body);
    },
  );
};
