import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Bodies up to this are read and discarded after an early refusal; larger ones close the connection. */
const DRAIN_MAX_BYTES = 256 * 1024 * 1024;

/**
 * An error answered before the request body has arrived (413, 503, 415...) must reach the
 * client: closing at once resets the connection while the client is still sending, and it sees
 * a broken pipe instead of the answer. So the connection is kept open and the rest of the body
 * read and thrown away (bounded by DRAIN_MAX_BYTES and REQUEST_TIMEOUT_MS), unless it declares more.
 * A client that asked to close after the answer (`Connection: close`, or HTTP/1.0) gets it once
 * its body has arrived: Node closes such a connection as soon as the answer is written.
 */
export function registerEarlyReplies(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.raw.complete || reply.statusCode < 400) return payload;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_MAX_BYTES) return payload;
    // Flowing with no listener: what still arrives is discarded, not buffered.
    request.raw.resume();
    if (reply.raw.shouldKeepAlive) {
      if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
      return payload;
    }
    reply.header('connection', 'close');
    await bodyEnded(request.raw);
    return payload;
  });
}

/** Resolves when the request's body has been read to its end, or the request is gone (aborted, timed out). */
function bodyEnded(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      raw.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    raw.on('end', done).on('close', done).on('error', done);
  });
}
