import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { STYLESHEETS } from '../views/stylesheets.js';
import { renderedBody, sendRendered } from '../renderedPages.js';

/** The pages' one script, plain JavaScript beside this file (copied into dist by the build). */
const liveScript = renderedBody(readFileSync(new URL('./assets/live.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');
/** The dashboard's script: local times, Copy for a new app key. */
const dashboardScript = renderedBody(readFileSync(new URL('./assets/dashboard.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');
/** The embed snippet's script, which other sites load to size the widget's frame. */
const embedScript = renderedBody(readFileSync(new URL('./assets/embed.js', import.meta.url), 'utf8'), 'text/javascript; charset=utf-8');
/** Each kind of page's stylesheet, by name, at its fingerprinted address. */
const stylesheets = new Map(
  Object.values(STYLESHEETS).map((sheet) => [sheet.name, { href: sheet.href, body: renderedBody(sheet.css, 'text/css; charset=utf-8') }]),
);

/** A fingerprinted address never changes its content: browsers and caches keep it a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET /assets/*: same origin, so the pages' CSP can allow them as `script-src 'self'` and `style-src 'self'`. */
export const assets: FastifyPluginAsync<{ compress: boolean }> = async (app, { compress }) => {
  app.get('/assets/live.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return sendRendered(request, reply, liveScript, compress);
  });

  app.get('/assets/dashboard.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return sendRendered(request, reply, dashboardScript, compress);
  });

  // Loaded by other sites' pages: helmet's Cross-Origin-Resource-Policy (same-origin) would block it there.
  app.get('/assets/embed.js', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').header('cross-origin-resource-policy', 'cross-origin');
    return sendRendered(request, reply, embedScript, compress);
  });

  for (const [name, { href, body }] of stylesheets) {
    app.get(href, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', IMMUTABLE).header('x-content-type-options', 'nosniff');
      return sendRendered(request, reply, body, compress);
    });
    // A page kept from before a release names the sheet's old fingerprint: the current sheet, kept only briefly, rather than an unstyled page.
    app.get(`/assets/${name}.:fingerprint(^[0-9a-f]{16}).css`, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
      return sendRendered(request, reply, body, compress);
    });
  }
};
