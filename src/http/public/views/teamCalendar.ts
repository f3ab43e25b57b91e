import ical, { ICalEventStatus } from 'ical-generator';
import type { Fixture } from '../../../domain/fixtures.js';
import type { ClubMatchDoc } from '../../../../projections/clubDashboard.js';

/** How long a match's calendar event lasts when the payload gives only its start: about a match and its warm-up. */
const MATCH_HOURS = 2;

const title = (m: ClubMatchDoc) => {
  const home = m.home.name ?? 'Home';
  const away = m.away.name ?? 'Away';
  const scored = m.status === 'final' && m.home.score !== null && m.away.score !== null;
  return scored ? `${home} ${m.home.score}–${m.away.score} ${away}` : `${home} vs ${away}`;
};

/**
 * A team's matches as an iCalendar feed (RFC 5545) that calendar apps subscribe to. Each match's
 * UID is its id at the service's host, so it never changes; SEQUENCE is the revision of the sync
 * it comes from (it only grows, with every new upload: a moved start time is a later one), and
 * DTSTAMP and LAST-MODIFIED are when that upload was synced.
 */
export function teamCalendar(options: {
  name: string;
  host: string;
  matchUrl: (id: string) => string;
  matches: ClubMatchDoc[];
  teamName: string;
  teamUrl: string;
  fixtures: Fixture[];
}): string {
  const calendar = ical({ name: options.name, prodId: { company: 'matchlog', product: 'team-calendar', language: 'EN' }, ttl: 60 * 60 });
  for (const m of options.matches) {
    const start = m.startedAt === null ? Number.NaN : Date.parse(m.startedAt);
    if (Number.isNaN(start)) continue;
    const synced = new Date(m.syncedAt);
    calendar.createEvent({
      id: `${m.matchId}@${options.host}`,
      start: new Date(start),
      end: new Date(start + MATCH_HOURS * 3_600_000),
      summary: title(m),
      ...(m.venue ? { location: m.venue } : {}),
      url: options.matchUrl(m.matchId),
      description: `${m.status === 'final' ? 'Final' : m.status === 'live' ? 'Live' : 'Scheduled'}: ${options.matchUrl(m.matchId)}`,
      sequence: m.revision,
      stamp: synced,
      lastModified: synced,
    });
  }
  // Fixtures announced from the dashboard: their UID names the fixture; SEQUENCE counts its changes; a cancelled one stays, CANCELLED.
  for (const f of options.fixtures) {
    const start = Date.parse(f.startsAt);
    const changed = new Date(f.changedAt);
    const [home, away] = f.homeAway === 'home' ? [options.teamName, f.opponent] : [f.opponent, options.teamName];
    calendar.createEvent({
      id: `fixture-${f.fixtureId}@${options.host}`,
      start: new Date(start),
      end: new Date(start + MATCH_HOURS * 3_600_000),
      summary: `${home} vs ${away}`,
      ...(f.venue === '' ? {} : { location: f.venue }),
      url: options.teamUrl,
      description: `${f.cancelled ? 'Cancelled' : 'Scheduled'}: ${options.teamUrl}`,
      sequence: f.sequence,
      stamp: changed,
      lastModified: changed,
      status: f.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
