import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { renderedBody, sendRendered } from '../renderedPages.js';

/** The pages' one script, plain JavaScript beside this file (copied into dist by the build). */
const liveScript = renderedBody(readFileSync(new URL('./assets/live.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');
/** The embed snippet's script, which other sites load to size the widget's frame. */
const embedScript = renderedBody(readFileSync(new URL('./assets/embed.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');

/** GET /assets/live.js: same origin, so the pages' CSP can allow it as `script-src 'self'`. */
export const assets: FastifyPluginAsync<{ compress: boolean }> = async (app, { compress }) => {
  app.get('/assets/live.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return sendRendered(request, reply, liveScript, compress);
  });

  // Loaded by other sites' pages: helmet's Cross-Origin-Resource-Policy (same-origin) would block it there.
  app.get('/assets/embed.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').header('cross-origin-resource-policy', 'cross-origin');
    return sendRendered(request, reply, embedScript, compress);
  });
};
