import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { ExistingClub } from '../../domain/club.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readClubMatches } from '../../../projections/clubDashboard.js';
import { pageErrorHandler } from '../errorHandling.js';
import { cachedBody, renderedBody, sendRendered } from '../renderedPages.js';
import { PAGE_CSP } from '../views/layout.js';
import { ClubParams } from './publicPageSchemas.js';
import { type ListedMatch, listedMatch, publicClub, publicTeams, teamPath, upcomingAndPlayed } from './publicClubs.js';
import { pageVersion, type PublicPagesDeps } from './teamPageRoutes.js';
import { unsyncedFixtures, upcomingFixtures } from './teamFixtures.js';
import { renderClubPage, renderPublicErrorPage } from './views/publicClubPage.js';
import { renderedKeys } from '../renderedKeys.js';

/** Matches the club page lists in each of its lists. */
const CLUB_PAGE_MATCHES = 10;

async function clubPageOf(readModel: ReadModelReader, club: ExistingClub, now: number) {
  const teams = publicTeams(club);
  const matches: ListedMatch[] = [];
  for (const entry of teams) {
    const copies = await readClubMatches(readModel, club.clubId, { teamId: entry.team.teamId }, { limit: 2 * CLUB_PAGE_MATCHES });
    matches.push(...copies.map((copy) => listedMatch(copy, entry.team.name, now)));
    matches.push(...upcomingFixtures(await unsyncedFixtures(readModel, club, entry.team.teamId), entry.team.name, now));
  }
  const { upcoming, played } = upcomingAndPlayed(matches);
  played.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  return {
    clubName: club.name,
    teams: teams.map((entry) => ({ name: entry.team.name, path: teamPath(club, entry) })),
    upcoming: upcoming.slice(0, CLUB_PAGE_MATCHES),
    latest: played.slice(0, CLUB_PAGE_MATCHES),
    noindex: clubNoindex(club),
  };
}

/** A club page is indexed only when every public team allows it. */
const clubNoindex = (club: ExistingClub) => {
  const teams = publicTeams(club);
  return teams.length === 0 || teams.some((entry) => entry.publicity.indexing === 'noindex');
};

/** `/c/:club`: a club's public page, its public teams, latest results and next matches; 404 while it is off. */
export const clubPage: FastifyPluginAsync<PublicPagesDeps> = async (app, { loadClub, readModel, cache, compress }) => {
  app.setErrorHandler(pageErrorHandler(renderPublicErrorPage));
  app.get<{ Params: Static<typeof ClubParams> }>('/c/:club', { schema: { hide: true, params: ClubParams } }, async (request, reply) => {
    const club = await publicClub(loadClub, request.params.club);
    const key = renderedKeys.club(club.clubId, await pageVersion(readModel, club));
    const body = await cachedBody(request, cache, key, async () => renderedBody(renderClubPage(await clubPageOf(readModel, club, Date.now()))));
    reply.header('content-security-policy', PAGE_CSP).header('cache-control', 'no-cache');
    if (clubNoindex(club)) reply.header('x-robots-tag', 'noindex');
    return sendRendered(request, reply, body, compress);
  });
};
