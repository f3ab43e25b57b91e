import type { FastifyInstance } from 'fastify';

/** Bodies up to this are read and discarded after an early refusal; larger ones close the connection. */
export const DRAIN_MAX_BYTES = 256 * 1024 * 1024;

/**
 * An error answered before the request body has arrived (413, 503, 415...) must reach the
 * client: closing at once resets the connection while the client is still sending, and it sees
 * a broken pipe instead of the answer. So the connection is kept open and the rest of the body
 * read and thrown away (bounded by DRAIN_MAX_BYTES and REQUEST_TIMEOUT_MS), unless it declares more.
 */
export function registerEarlyReplies(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.raw.complete || reply.statusCode < 400) return payload;
    const declared = Number(request.headers['content-length']);
    const bounded = !Number.isFinite(declared) || declared <= DRAIN_MAX_BYTES;
    if (bounded && reply.getHeader('connection') === 'close') reply.removeHeader('connection');
    // Flowing with no listener: what still arrives is discarded, not buffered.
    if (bounded) request.raw.resume();
    return payload;
  });
}
