import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every route (helmet's defaults; pages replace the CSP with their own
 * stricter one, and a route may pass `config: { helmet: {...} }` to relax one header), and CORS
 * for the JSON API: any origin, no credentials, so browser-based scoring apps and the docs
 * page's "try it" work.
 */
export async function registerHeaders(app: FastifyInstance) {
  await app.register(helmet, { global: true });
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
              exposedHeaders: ['X-Request-Id', 'ETag', 'Retry-After'],
              maxAge: 600,
            }
          : { origin: false },
      ),
  });
}
