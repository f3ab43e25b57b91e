import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { ExistingClub } from '../../domain/club.js';
import { seasonLeaders } from '../../domain/seasonLeaders.js';
import { seasonRecord } from '../../domain/seasonRecord.js';
import { shownName } from '../../domain/teamPublicity.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readClubMatches } from '../../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals } from '../../../projections/clubSeasonTotals.js';
import { pageErrorHandler } from '../errorHandling.js';
import { cachedBody, type RenderedCache, renderedBody, sendRendered } from '../renderedPages.js';
import { PAGE_CSP } from '../views/layout.js';
import { TeamPageQuery, TeamParams } from './publicPageSchemas.js';
import { clubPath, type LoadClub, listedMatch, type PublicTeam, publicClub, publicTeam, teamPath, upcomingAndPlayed } from './publicClubs.js';
import { renderPublicErrorPage } from './views/publicClubPage.js';
import { unsyncedFixtures, upcomingFixtures } from './teamFixtures.js';
import { renderTeamPage } from './views/publicTeamPage.js';
import { renderedKeys } from '../renderedKeys.js';

/** Most matches a team page reads for a season, and players its roster lists: a season is 20–40 matches, a squad 12–25. */
const TEAM_PAGE_MATCHES = 200;
const ROSTER_MAX = 60;

export interface PublicPagesDeps {
  loadClub: LoadClub;
  readModel: ReadModelReader;
  cache: RenderedCache;
  compress: boolean;
}

/** What a public page shows changes with the club's settings and names, and with the club dashboard's checkpoint. */
export async function pageVersion(readModel: ReadModelReader, club: ExistingClub): Promise<string> {
  const checkpoint = await readModel.getCheckpoint('clubDashboard');
  const settings = JSON.stringify([club.name, club.teams, club.publicity ?? {}, club.settledSides, club.fixtures ?? {}]);
  return `${checkpoint ?? 'none'}\0${settings}\0${Math.floor(Date.now() / 60_000)}`;
}

/** The team's page for a season: what its matches and season totals say, as the club lets the public see them. */
async function teamPageOf(readModel: ReadModelReader, club: ExistingClub, entry: PublicTeam, asked: string | undefined, now: number) {
  const { team, publicity } = entry;
  const all = await readClubMatches(readModel, club.clubId, { teamId: team.teamId }, { limit: TEAM_PAGE_MATCHES });
  const seasons = [...new Set(all.map((m) => m.season).filter((s): s is string => s !== null))];
  const season = asked !== undefined && seasons.includes(asked) ? asked : (seasons[0] ?? null);
  const copies = season === null ? all : all.filter((m) => m.season === season);
  const synced = copies.map((copy) => listedMatch(copy, team.name, now));
  // Fixtures have no season: the latest season's page lists them.
  const fixtures = season === (seasons[0] ?? null) ? upcomingFixtures(await unsyncedFixtures(readModel, club, team.teamId), team.name, now) : [];
  const matches = [...synced, ...fixtures];
  const players = playerTotalsOf(await readSeasonTotals(readModel, club.clubId, { teamId: team.teamId, ...(season === null ? {} : { season }) }));
  const named = (p: { name: string | null; number: string | null }) => shownName(p.name, p.number, publicity.privacy);
  const sport = players.find((p) => p.sport !== null)?.sport ?? null;
  const leaders = seasonLeaders(
    sport,
    players.map((p) => p.totals),
  ).map((stat) => ({ ...stat, leaders: stat.leaders.map((l) => ({ name: named(players[l.player]!), value: l.value })) }));
  const roster =
    publicity.roster === 'hidden'
      ? null
      : players.slice(0, ROSTER_MAX).map((p) => ({ name: named(p), number: p.number, position: publicity.privacy === 'numbers' ? null : p.position }));
  const path = teamPath(club, entry);
  return {
    clubName: club.name,
    clubPath: clubPath(club),
    teamName: team.name,
    path,
    seasons,
    season,
    ...upcomingAndPlayed(matches),
    record: seasonRecord(matches),
    leaders,
    roster,
    noindex: publicity.indexing === 'noindex',
    feeds: { calendar: `${path}/calendar.ics`, atom: `${path}/feed.atom` },
  };
}

/** `/c/:club/:team`: a team's public page; 404 (never 403) for a private team. Rendered once per season, settings and synced data. */
export const teamPage: FastifyPluginAsync<PublicPagesDeps> = async (app, { loadClub, readModel, cache, compress }) => {
  app.setErrorHandler(pageErrorHandler(renderPublicErrorPage));
  app.get<{ Params: Static<typeof TeamParams>; Querystring: Static<typeof TeamPageQuery> }>(
    '/c/:club/:team',
    { schema: { hide: true, params: TeamParams, querystring: TeamPageQuery } },
    async (request, reply) => {
      const club = await publicClub(loadClub, request.params.club);
      const entry = publicTeam(club, request.params.team);
      const version = await pageVersion(readModel, club);
      const key = renderedKeys.team(club.clubId, entry.team.teamId, request.query.season ?? '', version);
      const body = await cachedBody(request, cache, key, async () =>
        renderedBody(renderTeamPage(await teamPageOf(readModel, club, entry, request.query.season, Date.now()))),
      );
      reply.header('content-security-policy', PAGE_CSP).header('cache-control', 'no-cache');
      if (entry.publicity.indexing === 'noindex') reply.header('x-robots-tag', 'noindex');
      return sendRendered(request, reply, body, compress);
    },
  );
};
