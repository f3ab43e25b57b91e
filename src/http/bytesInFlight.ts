import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

/**
 * A cap on request bodies held at once. Each upload reserves its declared Content-Length (or
 * the body limit when it sends none) before its body is read; beyond the cap it is answered 503
 * with Retry-After, so many concurrent large uploads cannot exhaust memory.
 */
export function registerBytesInFlight(app: FastifyInstance, { maxBytesInFlight, maxBodyBytes }: { maxBytesInFlight: number; maxBodyBytes: number }) {
  let inFlight = 0;
  app.addHook('onRequest', async (request, reply) => {
    const declared = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (declared === undefined && !chunked) return;
    const length = Number(declared);
    // Larger than the body limit: Fastify answers 413 without holding it.
    if (Number.isFinite(length) && length > maxBodyBytes) return;
    const reserved = Number.isFinite(length) && !chunked ? length : maxBodyBytes;
    if (reserved === 0) return;
    if (inFlight + reserved > maxBytesInFlight) {
      request.log.warn({ inFlight, reserved, maxBytesInFlight }, 'upload refused: too many request bytes in flight');
      throw new DomainError('unavailable', 'the server is receiving too many uploads at once (MAX_BYTES_IN_FLIGHT); retry in a few seconds', 2);
    }
    inFlight += reserved;
    // Released once, however the exchange ends (answered, refused or aborted).
    reply.raw.once('close', () => {
      inFlight -= reserved;
    });
  });
  return { bytesInFlight: () => inFlight };
}
