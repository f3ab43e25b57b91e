import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

/** What METRICS_TOKEN must be: long enough that guessing it is hopeless, and sendable in a header as is. */
export const METRICS_TOKEN_RULE = 'must be 32 to 1024 visible ASCII characters (0x21-0x7E), e.g. openssl rand -hex 32';
const TOKEN_SHAPE = /^[\x21-\x7e]{32,1024}$/;

/** The token's SHA-256, which is all the process keeps of it; null when the value breaks METRICS_TOKEN_RULE. */
export function metricsTokenDigest(token: string): Buffer | null {
  return TOKEN_SHAPE.test(token) ? createHash('sha256').update(token).digest() : null;
}

/** Whether an Authorization header is `Bearer <the token>`: digests compared in constant time. */
function bearerMatches(authorization: string | undefined, digest: Buffer): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(createHash('sha256').update(presented).digest(), digest);
}

/**
 * GET /metrics on the public port, for platforms that expose one port: only with
 * `Authorization: Bearer <METRICS_TOKEN>`, else 401 through the one error mapping. Hidden from
 * the OpenAPI document (an operator's route, not the API).
 */
export function registerMetricsRoute(app: FastifyInstance, registry: Registry, digest: Buffer) {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, digest)) {
      reply.header('www-authenticate', 'Bearer realm="matchlog metrics"');
      throw Object.assign(new Error('GET /metrics on this port needs the header Authorization: Bearer <METRICS_TOKEN>'), { statusCode: 401 });
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}
