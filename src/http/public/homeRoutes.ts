import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { isMatchId, MATCH_ID_RULE } from '../../domain/matchId.js';
import { PAGE_CSP } from '../views/layout.js';
import { type HomeProblem, renderHomePage } from './views/homePage.js';

const FindQuery = Type.Object({
  match: Type.Optional(Type.String({ maxLength: 2000 })),
  club: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** A match id from what a visitor typed: the id, or a link whose path is /match/<id>[/…]. */
function matchIdFrom(typed: string): string | null {
  const text = typed.trim();
  const path = /\/match\/([^/?#\s]+)/.exec(text)?.[1] ?? text;
  let id: string;
  try {
    id = decodeURIComponent(path);
  } catch {
    return null;
  }
  return isMatchId(id) ? id : null;
}

/** A club's address from what a visitor typed: the slug, or a link whose path is /c/<slug>[/…]. */
function clubSlugFrom(typed: string): string | null {
  const text = typed.trim();
  const slug = (/\/c\/([^/?#\s]+)/.exec(text)?.[1] ?? text).toLowerCase();
  return /^[a-z0-9][a-z0-9-]{0,99}$/.test(slug) ? slug : null;
}

/**
 * `GET /`: the home page for people (find a match, a club; the dashboard and the docs); `GET
 * /find?match=…` or `?club=…` sends them there (303), or answers 400 with the home page saying
 * what to type instead.
 */
export const homePage: FastifyPluginAsync = async (app) => {
  const page = (reply: { header(name: string, value: string): unknown; type(value: string): unknown }) => {
    reply.header('content-security-policy', PAGE_CSP);
    reply.type('text/html; charset=utf-8');
  };
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    page(reply);
    reply.header('cache-control', 'public, max-age=300');
    return renderHomePage();
  });
  app.get<{ Querystring: { match?: string; club?: string } }>('/find', { schema: { hide: true, querystring: FindQuery } }, async (request, reply) => {
    const { match, club } = request.query;
    let problem: HomeProblem;
    if (match !== undefined) {
      const id = matchIdFrom(match);
      if (id !== null) return reply.redirect(`/match/${encodeURIComponent(id)}`, 303);
      problem = { field: 'match', value: match.slice(0, 300), message: `That is not a match id or link: ${MATCH_ID_RULE}, or a link with /match/ in it.` };
    } else if (club !== undefined) {
      const slug = clubSlugFrom(club);
      if (slug !== null) return reply.redirect(`/c/${slug}`, 303);
      problem = {
        field: 'club',
        value: club.slice(0, 300),
        message: 'That is not a club address: letters, digits and hyphens, as after /c/ in the club’s link.',
      };
    } else problem = { field: 'match', value: '', message: 'Type a match id or link, or a club address.' };
    page(reply);
    reply.code(400).header('cache-control', 'no-store');
    return renderHomePage(problem);
  });
};
