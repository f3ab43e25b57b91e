import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { readClubMatches } from '../../../projections/clubDashboard.js';
import { pageErrorHandler } from '../errorHandling.js';
import { cachedBody, renderedBody, sendRendered } from '../renderedPages.js';
import { TeamParams } from './publicPageSchemas.js';
import { publicClub, publicTeam, teamPath } from './publicClubs.js';
import { pageVersion, type PublicPagesDeps } from './teamPageRoutes.js';
import { renderPublicErrorPage } from './views/publicClubPage.js';
import { unsyncedFixtures } from './teamFixtures.js';
import { teamAtomFeed } from './views/teamAtomFeed.js';
import { teamCalendar } from './views/teamCalendar.js';
import { renderedKeys } from '../renderedKeys.js';

/** Matches, and fixtures announced from the dashboard, a feed lists: the team's latest by start time (a season or two). */
const FEED_MATCHES = 100;

type Feed = 'calendar' | 'atom';
const TYPES: Record<Feed, string> = { calendar: 'text/calendar; charset=utf-8', atom: 'application/atom+xml; charset=utf-8' };

/**
 * A public team's follow-without-an-account feeds: `/c/:club/:team/calendar.ics` (iCalendar, for
 * Google, Apple and Outlook calendars) and `/c/:club/:team/feed.atom` (results and schedule
 * changes). 404 like the team page while it is not public; made once per synced change and setting.
 */
export const teamFeeds: FastifyPluginAsync<PublicPagesDeps & { publicBaseUrl: string }> = async (
  app,
  { loadClub, readModel, cache, compress, publicBaseUrl },
) => {
  app.setErrorHandler(pageErrorHandler(renderPublicErrorPage));
  const matchUrl = (id: string) => `${publicBaseUrl}/match/${encodeURIComponent(id)}`;
  const host = new URL(publicBaseUrl).host;

  async function serve(request: FastifyRequest<{ Params: Static<typeof TeamParams> }>, reply: FastifyReply, feed: Feed) {
    const club = await publicClub(loadClub, request.params.club);
    const entry = publicTeam(club, request.params.team);
    const key = renderedKeys.teamFeed(feed, club.clubId, entry.team.teamId, await pageVersion(readModel, club));
    const body = await cachedBody(request, cache, key, async () => {
      const matches = await readClubMatches(readModel, club.clubId, { teamId: entry.team.teamId }, { limit: FEED_MATCHES });
      const name = `${entry.team.name} · ${club.name}`;
      const page = `${publicBaseUrl}${teamPath(club, entry)}`;
      // Like matches, the latest by start time: cancelled fixtures stay in the club's stream, not in feeds forever.
      const fixtures = (await unsyncedFixtures(readModel, club, entry.team.teamId)).slice(-FEED_MATCHES);
      const teamName = entry.team.name;
      const text =
        feed === 'calendar'
          ? teamCalendar({ name, host, matchUrl, matches, teamName, teamUrl: page, fixtures })
          : teamAtomFeed({ title: `${name}: results and schedule`, self: `${page}/feed.atom`, page, matchUrl, matches, teamName, fixtures });
      return renderedBody(text, TYPES[feed]);
    });
    reply.header('cache-control', 'no-cache').header('content-security-policy', "default-src 'none'");
    if (entry.publicity.indexing === 'noindex') reply.header('x-robots-tag', 'noindex');
    return sendRendered(request, reply, body, compress);
  }

  app.get<{ Params: Static<typeof TeamParams> }>('/c/:club/:team/calendar.ics', { schema: { hide: true, params: TeamParams } }, (request, reply) =>
    serve(request, reply, 'calendar'),
  );
  app.get<{ Params: Static<typeof TeamParams> }>('/c/:club/:team/feed.atom', { schema: { hide: true, params: TeamParams } }, (request, reply) =>
    serve(request, reply, 'atom'),
  );
};
