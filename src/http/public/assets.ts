import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { renderedBody, sendRendered } from './renderedPages.js';

/** The pages' one script, plain JavaScript beside this file (copied into dist by the build). */
const liveScript = renderedBody(readFileSync(new URL('./assets/live.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');

/** GET /assets/live.js: same origin, so the pages' CSP can allow it as `script-src 'self'`. */
export const assets: FastifyPluginAsync<{ compress: boolean }> = async (app, { compress }) => {
  app.get('/assets/live.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return sendRendered(request, reply, liveScript, compress);
  });
};
