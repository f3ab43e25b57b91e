import { type ExistingClub, teamFixtures } from '../../domain/club.js';
import type { Fixture } from '../../domain/fixtures.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readClubMatch } from '../../../projections/clubDashboard.js';
import type { ListedMatch } from './publicClubs.js';

/** A fixture stays under next matches until this long after its start (a match and its warm-up), then it is past. */
const LISTED_AFTER_START_MS = 3 * 3_600_000;

/**
 * A team's fixtures announced from the dashboard, cancelled ones included (the calendar says
 * they are cancelled), minus those whose named match has synced into the team: the match is
 * listed then, with its own page and calendar event.
 */
export async function unsyncedFixtures(readModel: ReadModelReader, club: ExistingClub, teamId: string): Promise<Fixture[]> {
  const fixtures: Fixture[] = [];
  for (const fixture of teamFixtures(club, teamId)) {
    const synced = fixture.matchId === null ? null : await readClubMatch(readModel, club.clubId, fixture.matchId);
    if (synced === null || synced.teamId !== teamId) fixtures.push(fixture);
  }
  return fixtures;
}

/** The fixtures a team page lists under next matches: not cancelled, not long past. */
export const upcomingFixtures = (fixtures: Fixture[], teamName: string, now: number): ListedMatch[] =>
  fixtures.filter((f) => !f.cancelled && Date.parse(f.startsAt) + LISTED_AFTER_START_MS > now).map((f) => listedFixture(f, teamName));

function listedFixture(fixture: Fixture, teamName: string): ListedMatch {
  const ours = { name: teamName, score: null };
  const theirs = { name: fixture.opponent, score: null };
  return {
    matchId: fixture.matchId ?? `fixture-${fixture.fixtureId}`,
    announced: true,
    startedAt: fixture.startsAt,
    venue: fixture.venue === '' ? null : fixture.venue,
    home: fixture.homeAway === 'home' ? ours : theirs,
    away: fixture.homeAway === 'home' ? theirs : ours,
    side: fixture.homeAway,
    scoreUnit: null,
    status: 'scheduled',
    shown: 'scheduled',
    teamName,
  };
}
