import cors from '@fastify/cors';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

/**
 * helmet's default headers, as its middleware sets them on an answer: worked out once. Its
 * defaults are the same on every answer (no directive is a function of the request), so an
 * answer gets them set in one loop instead of through helmet's chain of thirteen middlewares.
 */
const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = (() => {
  const headers: [string, string][] = [];
  // A real answer to a request on no connection, which only writes down what helmet sets (the name as it spells it).
  const answer = new ServerResponse(new IncomingMessage(new Socket()));
  answer.setHeader = (name, value) => {
    headers.push([name, String(value)]);
    return answer;
  };
  helmet()(answer.req, answer, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
})();

function securityHeaders(res: ServerResponse) {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
}

/**
 * Every header the JSON API answers with that a browser app may need to read, beyond those CORS
 * always shows (Content-Type, Cache-Control, …): what was refused and for how long, the club
 * sync's outcome, a version's salt (to recompute its digest), an old revision's head, the write budget's state.
 */
const API_RESPONSE_HEADERS = [
  'X-Request-Id',
  'ETag',
  'Retry-After',
  'Matchlog-Club-Sync',
  'Matchlog-Payload-Salt',
  'Matchlog-Latest-Revision',
  'Link',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * Security headers on every route: helmet's defaults, worked out once (not once per request, as
 * @fastify/helmet does); pages replace the CSP with their own stricter one, and a route that
 * may be framed calls `allowFraming`. CORS for the JSON API: any origin, no credentials, so
 * browser-based scoring apps and the docs page's "try it" work.
 */
export async function registerHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    securityHeaders(reply.raw);
    done();
  });
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(
        null,
        request.url?.startsWith('/api/')
          ? {
              origin: '*',
              credentials: false,
              methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
              allowedHeaders: ['Content-Type', 'X-Write-Token', 'X-App-Key', 'X-Request-Id'],
              exposedHeaders: API_RESPONSE_HEADERS,
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
export function setHeadersBeforeRouting(res: ServerResponse) {
  securityHeaders(res);
  res.setHeader('vary', 'Origin');
}
