import t from 'tap';
import { decideClub, evolveClub, initialClubState, teamFixtures } from '../../src/domain/club.js';
import type { ClubEvent } from '../../src/domain/clubEvents.js';
import { FIXTURE_CSV_MAX_ROWS, parseFixtureCsv } from '../../src/domain/fixtureCsv.js';
import { FIXTURE_DETAIL_KEYS, type FixtureDetails, fixtureDetails, localDateTime } from '../../src/domain/fixtures.js';
import { deciderSpec } from '../helpers/givenWhenThen.js';

const at = '2026-11-29T08:00:00.000Z';
const registered: ClubEvent = {
  type: 'ClubRegistered',
  data: { clubId: 'c000000000000001', name: 'Lakeside VC', adminEmail: 'admin@lakeside.test', passwordHash: 'scrypt$x', registeredAt: at },
};
const u14: ClubEvent = { type: 'TeamAdded', data: { teamId: 'team000001', name: 'U14 Girls' } };
const spec = deciderSpec({ initialState: initialClubState, decide: decideClub, evolve: evolveClub });

const input = { opponent: ' Riverside ', date: '2026-12-12', time: '10:00', timeZone: 'Europe/Amsterdam', venue: 'Hall', homeAway: 'Home', matchId: '' };

t.test('a local date and time in a named zone becomes a UTC instant, across daylight saving and back', async (t) => {
  t.equal(fixtureDetails(input).startsAt, '2026-12-12T09:00:00.000Z', 'winter: UTC+1');
  t.equal(fixtureDetails({ ...input, date: '2026-07-04' }).startsAt, '2026-07-04T08:00:00.000Z', 'summer: UTC+2');
  t.equal(fixtureDetails({ ...input, timeZone: 'America/New_York', time: '19:30' }).startsAt, '2026-12-13T00:30:00.000Z', 'the next day in UTC');
  t.equal(fixtureDetails({ ...input, timeZone: 'UTC', time: '9.05' }).startsAt, '2026-12-12T09:05:00.000Z', 'a dot also separates hours');
  t.equal(fixtureDetails({ ...input, date: '2026-10-25', time: '02:30' }).startsAt, '2026-10-25T00:30:00.000Z', 'an hour that happens twice: the first');
  t.equal(
    fixtureDetails({ ...input, timeZone: 'America/New_York', date: '2026-11-01', time: '01:30' }).startsAt,
    '2026-11-01T05:30:00.000Z',
    'in New York too',
  );
  t.throws(() => fixtureDetails({ ...input, date: '2026-03-29', time: '02:30' }), /does not exist in Europe\/Amsterdam/, 'an hour that never happens');
  const details = fixtureDetails(input);
  t.same(details, {
    opponent: 'Riverside',
    startsAt: '2026-12-12T09:00:00.000Z',
    timeZone: 'Europe/Amsterdam',
    venue: 'Hall',
    homeAway: 'home',
    matchId: null,
  });
  t.same(localDateTime(details), { date: '2026-12-12', time: '10:00' }, 'shown back as entered');
  t.throws(() => fixtureDetails({ ...input, date: '12/12/2026' }), /write it as YYYY-MM-DD/);
  t.throws(() => fixtureDetails({ ...input, time: '24:00' }), /24-hour clock/);
  t.throws(() => fixtureDetails({ ...input, timeZone: '' }), /is not a time zone/);
});

t.test('the CSV: header in any order, both separators, quotes; the first bad row refuses the file', async (t) => {
  const fixtures = parseFixtureCsv('\uFEFFhome_away;opponent;date;time\r\naway;"A ""B""; C";2026-12-19;09:30\r\n\r\n', 'UTC');
  t.same(
    fixtures.map((f) => [f.opponent, f.homeAway, f.startsAt, f.venue, f.matchId]),
    [['A "B"; C', 'away', '2026-12-19T09:30:00.000Z', '', null]],
  );
  t.throws(() => parseFixtureCsv('date,time,opponent,home_away\n2026-12-19,09:30,"open,home', 'UTC'), /row 2: a quote is opened and not closed/);
  t.throws(() => parseFixtureCsv('date,time,opponent,home_away\n2026-12-19,09:30,X,home\n2026-13-01,09:30,Y,home', 'UTC'), /^row 3: the date "2026-13-01"/);
  const rows = Array.from(
    { length: FIXTURE_CSV_MAX_ROWS },
    (_, i) => `2027-01-01,${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},X,home`,
  );
  t.equal(parseFixtureCsv(['date,time,opponent,home_away', ...rows].join('\n'), 'UTC').length, FIXTURE_CSV_MAX_ROWS, 'the cap itself is taken');
});

t.test('a change is compared field by field over every field of a fixture', async (t) => {
  // Fails to compile when FixtureDetails has a field the list leaves out.
  const everyField: [Exclude<keyof FixtureDetails, (typeof FIXTURE_DETAIL_KEYS)[number]>] extends [never] ? true : false = true;
  t.ok(everyField);
  t.equal(new Set(FIXTURE_DETAIL_KEYS).size, FIXTURE_DETAIL_KEYS.length);
});

t.test('fixtures are club events: announced all at once, changed (SEQUENCE grows), cancelled; a cancelled one is not changed', async (t) => {
  const details: FixtureDetails = fixtureDetails(input);
  const announced: ClubEvent = { type: 'FixtureAnnounced', data: { fixtureId: 'fx1', teamId: 'team000001', ...details, at } };
  spec([registered, u14])
    .when({ type: 'AnnounceFixtures', teamId: 'team000001', fixtures: [{ fixtureId: 'fx1', details }], at })
    .then(t, [announced]);
  spec([registered, u14])
    .when({ type: 'AnnounceFixtures', teamId: 'nope', fixtures: [{ fixtureId: 'fx1', details }], at })
    .thenThrows(t, 'not_found', /no team nope/);
  spec([registered, u14, announced]).when({ type: 'ChangeFixture', teamId: 'team000001', fixtureId: 'fx1', details, at }).then(t, []);
  const moved = { ...details, startsAt: '2026-12-12T10:30:00.000Z' };
  const changed: ClubEvent = { type: 'FixtureChanged', data: { fixtureId: 'fx1', ...moved, at } };
  spec([registered, u14, announced]).when({ type: 'ChangeFixture', teamId: 'team000001', fixtureId: 'fx1', details: moved, at }).then(t, [changed]);
  const cancelled: ClubEvent = { type: 'FixtureCancelled', data: { fixtureId: 'fx1', at } };
  spec([registered, u14, announced, changed])
    .when({ type: 'ChangeFixture', teamId: 'team000001', fixtureId: 'fx1', details, at })
    .then(t, [{ type: 'FixtureChanged', data: { fixtureId: 'fx1', ...details, at } }]);
  spec([registered, u14, announced, cancelled])
    .when({ type: 'ChangeFixture', teamId: 'team000001', fixtureId: 'fx1', details: moved, at })
    .thenThrows(t, 'validation', /cancelled/);
  spec([registered, u14, announced])
    .when({ type: 'CancelFixture', teamId: 'team000002', fixtureId: 'fx1', at })
    .thenThrows(t, 'not_found', /no fixture fx1/);
  const club = [registered, u14, announced, changed, cancelled].reduce(evolveClub, initialClubState());
  if (!club.exists) throw new Error('no club');
  t.match(teamFixtures(club, 'team000001'), [{ fixtureId: 'fx1', startsAt: '2026-12-12T10:30:00.000Z', sequence: 2, cancelled: true }]);
});
