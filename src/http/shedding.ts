import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers even while the server sheds load (/healthz). */
    answersUnderPressure?: boolean;
  }
}

const overloaded = () => new DomainError('unavailable', 'the server is overloaded; retry in a few seconds', 2);

/** The histogram's resolution, in ms: its mean is never below it. */
const RESOLUTION_MS = 10;

/**
 * Sheds load with 503 and Retry-After while the event loop lags more than `maxEventLoopDelayMs`
 * (0: never). /healthz still answers, so an overloaded process is not mistaken for a dead one.
 *
 * The lag is sampled once a second from perf_hooks' event-loop histogram, the way
 * @fastify/under-pressure does, but without its memory sampling: process.memoryUsage() opens
 * /proc/self/stat, and when the process is out of file descriptors it throws EMFILE from a
 * timer, which ends the process. This sampler opens nothing.
 */
export async function registerShedding(app: FastifyInstance, maxEventLoopDelayMs: number) {
  if (maxEventLoopDelayMs === 0) return;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let delayMs = 0;
  const timer = setInterval(() => {
    delayMs = Number.isNaN(histogram.mean) ? Infinity : Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
    histogram.reset();
  }, 1000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    histogram.disable();
  });
  app.addHook('onRequest', async (request) => {
    if (delayMs > maxEventLoopDelayMs && request.routeOptions.config.answersUnderPressure !== true) throw overloaded();
  });
}

/** Route config for routes that answer even under pressure. */
export const answersUnderPressure = { answersUnderPressure: true };
