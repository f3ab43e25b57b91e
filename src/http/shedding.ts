import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

class Overloaded extends DomainError {
  constructor() {
    super('unavailable', 'the server is overloaded; retry in a few seconds');
  }
}

/**
 * Sheds load with 503 and Retry-After while the event loop lags more than `maxEventLoopDelayMs`
 * (0: never). /healthz still answers, so an overloaded process is not mistaken for a dead one.
 */
export async function registerShedding(app: FastifyInstance, maxEventLoopDelayMs: number) {
  if (maxEventLoopDelayMs === 0) return;
  await app.register(underPressure, { maxEventLoopDelay: maxEventLoopDelayMs, retryAfter: 2, customError: Overloaded });
}

/** Route config for routes that answer even under pressure. */
export const answersUnderPressure = { pressureHandler: () => undefined };
