import { nameProblem, TEAM_NAME_MAX } from './clubIds.js';
import { validationError } from './errors.js';
import { isMatchId, MATCH_ID_RULE } from './matchId.js';

/**
 * Fixtures a club admin announces from the dashboard (issue 61): club events, never match
 * uploads. Times are entered in the admin's time zone (IANA name, stated on the form) and stored
 * as UTC instants with that zone beside them.
 */
type HomeAway = 'home' | 'away';

export interface FixtureDetails {
  opponent: string;
  /** UTC instant, ISO 8601 with a Z. */
  startsAt: string;
  /** The IANA time zone the admin entered the time in. */
  timeZone: string;
  venue: string;
  homeAway: HomeAway;
  /** The match id the scoring app will use; once that match syncs into the team, the match is listed instead. */
  matchId: string | null;
}

/** Every field of FixtureDetails, to compare two field by field (test/domain/fixtures.test.ts fails to compile when one is missing). */
export const FIXTURE_DETAIL_KEYS = ['opponent', 'startsAt', 'timeZone', 'venue', 'homeAway', 'matchId'] as const satisfies readonly (keyof FixtureDetails)[];

export interface Fixture extends FixtureDetails {
  fixtureId: string;
  teamId: string;
  /** 0 when announced, one more with each change or the cancellation (the calendar's SEQUENCE). */
  sequence: number;
  cancelled: boolean;
  /** When it was announced, changed or cancelled last. */
  changedAt: string;
}

/** What a form field or a CSV row gives, as typed. */
export interface FixtureInput {
  opponent: string;
  date: string;
  time: string;
  timeZone: string;
  venue: string;
  homeAway: string;
  matchId: string;
}

export const VENUE_MAX = 120;
/** Most fixtures a team has announced and not cancelled at once: a season or two. */
export const MAX_TEAM_FIXTURES = 200;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2})[:.](\d{2})$/;

/** Whether the runtime knows this IANA time zone name. */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone, as a UTC millisecond count. */
function wallClock(ms: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant of a local date and time in a zone: null when that local time does not exist
 * there (clocks go forward); the earlier of the two when it happens twice (clocks go back).
 */
function zonedInstant(date: string, time: string, zone: string): number | null {
  const d = DATE.exec(date);
  const h = TIME.exec(time);
  if (d === null || h === null) return null;
  const local = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(h[1]), Number(h[2]));
  // The zone's offset a day before and a day after: a change of clocks lies between them at most.
  const offsets = [local - DAY_MS, local + DAY_MS].map((around) => wallClock(around, zone) - around);
  const instants = offsets.map((offset) => local - offset).filter((instant) => wallClock(instant, zone) === local);
  return instants.length === 0 ? null : Math.min(...instants);
}

const validDate = (date: string) => {
  const d = DATE.exec(date);
  if (d === null) return false;
  const at = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
  return at.getUTCFullYear() === Number(d[1]) && at.getUTCMonth() === Number(d[2]) - 1 && at.getUTCDate() === Number(d[3]);
};
const validTime = (time: string) => {
  const h = TIME.exec(time);
  return h !== null && Number(h[1]) < 24 && Number(h[2]) < 60;
};

/** Checks what was typed; every problem says what to write instead. */
export function fixtureDetails(input: FixtureInput): FixtureDetails {
  const opponent = input.opponent.trim();
  const problem = nameProblem('the opponent', opponent, TEAM_NAME_MAX);
  if (problem !== null) throw validationError(problem);
  const date = input.date.trim();
  if (!validDate(date)) throw validationError(`the date "${date}" is not a date: write it as YYYY-MM-DD, e.g. 2026-12-05`);
  const time = input.time.trim();
  if (!validTime(time)) throw validationError(`the time "${time}" is not a time: write it as HH:MM on a 24-hour clock, e.g. 09:30`);
  const timeZone = input.timeZone.trim();
  if (!knownZone(timeZone)) throw validationError(`"${timeZone}" is not a time zone: name one like Europe/Amsterdam or America/New_York`);
  const instant = zonedInstant(date, time, timeZone);
  if (instant === null) throw validationError(`${date} ${time} does not exist in ${timeZone} (the clocks go forward then): choose another time`);
  const venue = input.venue.trim();
  if (venue.length > VENUE_MAX) throw validationError(`the venue is ${venue.length} characters long; at most ${VENUE_MAX}`);
  const side = input.homeAway.trim().toLowerCase();
  if (side !== 'home' && side !== 'away') throw validationError(`home or away: write "home" or "away", not "${input.homeAway.trim()}"`);
  const matchId = input.matchId.trim();
  if (matchId !== '' && !isMatchId(matchId)) throw validationError(`the match id "${matchId}" is not valid: ${MATCH_ID_RULE}`);
  return { opponent, startsAt: new Date(instant).toISOString(), timeZone, venue, homeAway: side, matchId: matchId === '' ? null : matchId };
}

/** The fixture's date and time as the admin entered them (its own zone). */
export function localDateTime(fixture: Pick<FixtureDetails, 'startsAt' | 'timeZone'>): { date: string; time: string } {
  const wall = new Date(wallClock(Date.parse(fixture.startsAt), fixture.timeZone)).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}
