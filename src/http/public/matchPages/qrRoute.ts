import type { FastifyPluginAsync } from 'fastify';
import { isMatchId } from '../../../domain/matchId.js';
import { cachedBody, renderedBody, sendRendered } from '../../renderedPages.js';
import { renderedKeys } from '../../renderedKeys.js';
import type { MatchPageContext } from './matchPageContext.js';

/** The QR code of a match's address (`/match/:id/qr.svg`), made once per address it hands out. */
export const qrRoute: FastifyPluginAsync<MatchPageContext> = async (app, ctx) => {
  app.get<{ Params: { id: string } }>('/match/:id/qr.svg', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    if (!isMatchId(id) || (await ctx.currentPublicView(id)) === null) throw await ctx.noMatch(id);
    const body = await cachedBody(request, ctx.cache, renderedKeys.qr(id, { base: ctx.baseOf(request) }), async () => {
      // Loaded on the first QR code (~10 MB resident), not at start.
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(ctx.urlFor(request, id), {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
        color: { dark: '#000000', light: '#ffffff' },
      });
      return renderedBody(svg, 'image/svg+xml');
    });
    reply.header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return sendRendered(request, reply, body, ctx.compress);
  });
};
