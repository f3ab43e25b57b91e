import { type ExistingClub, type Team, teamPublicity } from '../../domain/club.js';
import { notFound } from '../../domain/errors.js';
import { clubIdOfSlug, clubSlug, teamSlug } from '../../domain/publicSlugs.js';
import type { TeamPublicity } from '../../domain/teamPublicity.js';
import type { ClubMatchDoc } from '../../../projections/clubDashboard.js';
import { isQuiet, type ShownStatus, shownStatus } from './views/matchStatus.js';

/** The club as its stream says now (src/commands/clubCommands.ts loadClub). */
export type LoadClub = (clubId: string) => Promise<ExistingClub | null>;

export interface PublicTeam {
  team: Team;
  slug: string;
  publicity: TeamPublicity;
}

/** One message for every page that is not public: a private team's page and a missing one answer alike (404, never 403). */
const NOT_PUBLIC = 'no public page at this address: the club or team has none, or has not switched it on';

/** The club of a slug when its public page is on; 404 otherwise. */
export async function publicClub(loadClub: LoadClub, slug: string): Promise<ExistingClub> {
  const clubId = clubIdOfSlug(slug);
  const club = clubId === null ? null : await loadClub(clubId);
  if (club === null || club.publicPage !== true) throw notFound(NOT_PUBLIC);
  return club;
}

/** The club's teams whose public page is on, with their slugs. */
export const publicTeams = (club: ExistingClub): PublicTeam[] =>
  club.teams
    .map((team) => ({ team, slug: teamSlug(team, club.teams), publicity: teamPublicity(club, team.teamId) }))
    .filter((entry) => entry.publicity.publicPage);

/** A public team of the club by its slug (or id); 404 for a private or missing one. */
export function publicTeam(club: ExistingClub, slug: string): PublicTeam {
  const found = publicTeams(club).find((entry) => entry.slug === slug || entry.team.teamId === slug);
  if (found === undefined) throw notFound(NOT_PUBLIC);
  return found;
}

export const clubPath = (club: ExistingClub) => `/c/${clubSlug(club)}`;
export const teamPath = (club: ExistingClub, team: PublicTeam) => `${clubPath(club)}/${team.slug}`;

/** A match of a team as its public pages list it. */
export interface ListedMatch {
  matchId: string;
  startedAt: string | null;
  venue: string | null;
  home: { name: string | null; score: number | null };
  away: { name: string | null; score: number | null };
  side: 'home' | 'away' | null;
  scoreUnit: ClubMatchDoc['scoreUnit'];
  status: ClubMatchDoc['status'];
  /** Live only while uploads keep coming (LIVE_WINDOW_MS), as on the match page. */
  shown: ShownStatus | null;
  teamName: string;
  /** A fixture announced from the dashboard (src/http/public/teamFixtures.ts): no match page yet, so no link. */
  announced?: true;
}

export const listedMatch = (copy: ClubMatchDoc, teamName: string, now: number): ListedMatch => ({
  matchId: copy.matchId,
  startedAt: copy.startedAt,
  venue: copy.venue ?? null,
  home: { name: copy.home.name, score: copy.home.score },
  away: { name: copy.away.name, score: copy.away.score },
  side: copy.side,
  scoreUnit: copy.scoreUnit,
  status: copy.status ?? null,
  shown: shownStatus(copy.status ?? null, { quiet: isQuiet(copy.syncedAt, now), old: false }),
  teamName,
});

/** Scheduled matches first, soonest first; the others after. */
export function upcomingAndPlayed(matches: ListedMatch[]): { upcoming: ListedMatch[]; played: ListedMatch[] } {
  const upcoming = matches.filter((m) => m.status === 'scheduled').sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''));
  return { upcoming, played: matches.filter((m) => m.status !== 'scheduled') };
}
