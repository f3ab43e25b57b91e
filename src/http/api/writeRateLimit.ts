import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { tooManyRequests } from '../../domain/errors.js';
import type { RateLimit } from './tokenFailures.js';

/**
 * Writes per client address (WRITE_RATE_LIMIT; request.ip: the peer, or the client a configured
 * TRUST_PROXY names): one count for every route registered in `app`'s scope after this, POST,
 * PUT and DELETE together. A route that is no write opts out with `config: { rateLimit: false }`.
 */
export async function registerWriteRateLimit(app: FastifyInstance, limit: RateLimit | null) {
  await app.register(fastifyRateLimit, {
    global: limit !== null,
    max: limit?.max ?? 0,
    timeWindow: limit?.windowMs ?? 0,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`too many writes from your address (WRITE_RATE_LIMIT ${limit?.text ?? ''}); retry in ${context.after}`),
  });
}
