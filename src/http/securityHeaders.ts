import cors from '@fastify/cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

const securityHeaders = helmet();

/**
 * Security headers on every route: helmet's defaults, built once (not once per request, as
 * @fastify/helmet does); pages replace the CSP with their own stricter one, and a route that
 * may be framed calls `allowFraming`. CORS for the JSON API: any origin, no credentials, so
 * browser-based scoring apps and the docs page's "try it" work.
 */
export async function registerHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined)));
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(
        null,
        request.url?.startsWith('/api/')
          ? {
              origin: '*',
              credentials: false,
              methods: ['GET', 'HEAD', 'POST', 'PUT'],
              allowedHeaders: ['Content-Type', 'X-Write-Token', 'X-App-Key', 'X-Request-Id'],
              exposedHeaders: ['X-Request-Id', 'ETag', 'Retry-After', 'Matchlog-Club-Sync'],
              maxAge: 600,
            }
          : { origin: false },
      ),
  });
}

/** Lets other sites frame this answer (the embed widget); its own CSP says who may (frame-ancestors). */
export function allowFraming(reply: FastifyReply) {
  reply.raw.removeHeader('x-frame-options');
}

/**
 * The headers `registerHeaders` gives an answer to a non-API address, for one answered before
 * routing (earlyStreamRefusal): helmet's, and the Vary that CORS adds where it allows no origin.
 */
export function setHeadersBeforeRouting(req: IncomingMessage, res: ServerResponse) {
  securityHeaders(req, res, () => {});
  res.setHeader('vary', 'Origin');
}
