import ICAL from 'ical.js';
import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { publicClubWorld } from '../helpers/publicClub.js';

type World = Awaited<ReturnType<typeof publicClubWorld>>;

const FORM = { opponent: 'Riverside Rockets U14', date: '2026-12-12', time: '10:00', timeZone: 'Europe/Amsterdam', venue: 'Lakeside Hall', homeAway: 'home' };

/** The team's fixtures as the club's stream says (the source of truth), soonest first. */
async function fixturesOf(w: World) {
  const club = await createClubCommands({ eventStore: w.engine.eventStore }).loadClub(w.clubId);
  return Object.values(club?.fixtures ?? {}).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}

/** A page's text with the quotes HTML escapes put back, to read messages as written. */
const unquoted = (res: { statusCode: number; body: string }) => ({
  statusCode: res.statusCode,
  body: res.body.replaceAll('&quot;', '"').replaceAll('&#39;', "'"),
});

async function announce(w: World, form: Record<string, string>) {
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  return unquoted(await w.admin.post(`/dashboard/teams/${w.u14}/fixtures`, form));
}

async function importCsv(w: World, csv: string, timeZone = 'Europe/Amsterdam') {
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  return unquoted(await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/import`, { csv, timeZone }));
}

/** The calendar's events as ical.js reads them, by UID. */
function calendarEvents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return new Map(
    calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      const status = component.getFirstPropertyValue('status');
      return [
        event.uid,
        { summary: event.summary, location: event.location, start: event.startDate.toJSDate().toISOString(), sequence: event.sequence, status },
      ];
    }),
  );
}

/** Row i of a long file: 101 different fixtures in February 2027. */
const manyRows = (i: number) => `2027-02-${String((i % 28) + 1).padStart(2, '0')},${String(8 + (i % 12)).padStart(2, '0')}:00,Team ${i},Hall,home`;

const text = async (base: string, path: string) => (await fetch(`${base}${path}`)).text();

t.test('the fixtures form announces a fixture in the time zone it names; each refusal says what to fix and changes nothing', async (t) => {
  const w = await publicClubWorld(t);
  const teams = await w.admin.get('/dashboard/teams');
  t.match(teams.body, new RegExp(`href="/dashboard/teams/${w.u14}/fixtures"`), 'Teams links to each team’s fixtures');
  const page = await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  t.equal(page.statusCode, 200);
  t.match(page.body, /Fixtures of U14 Girls/);
  t.match(page.body, /name="timeZone"/);

  const refusals: [Record<string, string>, RegExp][] = [
    [{ ...FORM, date: '2026-02-30' }, /the date "2026-02-30" is not a date: write it as YYYY-MM-DD/],
    [{ ...FORM, time: '25:00' }, /the time "25:00" is not a time/],
    [{ ...FORM, timeZone: 'Mars/Olympus' }, /"Mars\/Olympus" is not a time zone/],
    [{ ...FORM, date: '2027-03-28', time: '02:30' }, /2027-03-28 02:30 does not exist in Europe\/Amsterdam/],
    [{ ...FORM, homeAway: 'both' }, /home or away: write "home" or "away", not "both"/],
    [{ ...FORM, matchId: 'not a match id!' }, /the match id "not a match id!" is not valid: a match id is 1-128 characters/],
    [{ ...FORM, opponent: '   ' }, /opponent/],
    [{ ...FORM, venue: 'v'.repeat(121) }, /the venue is 121 characters long; at most 120/],
  ];
  for (const [form, message] of refusals) {
    const res = await announce(w, form);
    t.equal(res.statusCode, 400, `refused: ${JSON.stringify(form).slice(0, 120)}`);
    t.match(res.body, message);
  }
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  t.equal((await w.admin.post(`/dashboard/teams/${w.u14}/fixtures`, FORM, { csrf: null })).statusCode, 403, 'no CSRF token');
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  t.equal((await w.admin.post('/dashboard/teams/nosuchteam/fixtures', FORM)).statusCode, 404, 'no such team');
  t.same(await fixturesOf(w), [], 'no refusal announced anything');

  const res = await announce(w, FORM);
  t.equal(res.statusCode, 303);
  const [fixture] = await fixturesOf(w);
  t.equal(fixture?.startsAt, '2026-12-12T09:00:00.000Z', '10:00 in Amsterdam in winter is 09:00 UTC');
  t.equal(fixture?.timeZone, 'Europe/Amsterdam');
  t.equal(fixture?.matchId, null);
  t.equal(fixture?.sequence, 0);
  const after = await w.admin.get(`/dashboard/teams/${w.u14}/fixtures?done=announced`);
  t.match(after.body, /Fixture announced/);
  t.match(after.body, /2026-12-12 10:00 \(Europe\/Amsterdam\)/, 'listed as entered, its zone named');
});

t.test('a CSV import: comma or semicolon, all or nothing with the row named, capped', async (t) => {
  const w = await publicClubWorld(t);
  const good = [
    'date;time;opponent;venue;home_away;match_id',
    '2026-12-19;09:30;Harbour Hawks;"Harbour Gym; court 2";away;',
    '2027-01-09;14:00;"Northside ""Owls""";Lakeside Hall;home;u14-owls-home',
    '',
  ].join('\r\n');
  const broken = good.replace('2027-01-09;14:00', '2027-01-09;2pm');
  let res = await importCsv(w, broken);
  t.equal(res.statusCode, 400);
  t.match(res.body, /row 3: the time "2pm" is not a time: write it as HH:MM/);
  t.match(res.body, /Harbour Hawks/, 'the pasted file comes back in the form, to be fixed');
  const refusals: [string, RegExp][] = [
    ['day,time,opponent,venue,home_away\n2026-12-19,09:30,X,Y,home', /row 1 \(the header\): unknown column "day"/],
    ['date,time,venue,home_away\n2026-12-19,09:30,Y,home', /row 1 \(the header\): the column opponent is missing/],
    ['date,time,opponent,venue,home_away\n2026-12-19,09:30,X,home', /row 2: 4 fields where the header has 5/],
    ['date,time,opponent,venue,home_away\n2026-12-19,09:30,X,Y,home\n2026-12-19,09:30,x,Z,home', /row 3: the same fixture as row 2/],
    ['date,time,opponent,venue,home_away\n', /no fixture/],
    [`date,time,opponent,venue,home_away\n${Array.from({ length: 101 }, (_, i) => manyRows(i)).join('\n')}`, /row 102: at most 100 fixtures per import/],
    [`date,time,opponent,venue,home_away\n${'2026-12-19,09:30,X,Y,home\n'.repeat(400)}`, /characters long; at most 10000/],
  ];
  for (const [csv, message] of refusals) {
    res = await importCsv(w, csv);
    t.equal(res.statusCode, 400, `refused: ${csv.slice(0, 60)}`);
    t.match(res.body, message);
  }
  res = await importCsv(w, good, 'Nowhere/Else');
  t.equal(res.statusCode, 400, 'an unknown time zone');
  t.match(res.body, /row 2: "Nowhere\/Else" is not a time zone/);
  t.same(await fixturesOf(w), [], 'no refused file announced anything');

  res = await importCsv(w, good);
  t.equal(res.statusCode, 303);
  const fixtures = await fixturesOf(w);
  t.same(
    fixtures.map((f) => [f.startsAt, f.opponent, f.venue, f.homeAway, f.matchId]),
    [
      ['2026-12-19T08:30:00.000Z', 'Harbour Hawks', 'Harbour Gym; court 2', 'away', null],
      ['2027-01-09T13:00:00.000Z', 'Northside "Owls"', 'Lakeside Hall', 'home', 'u14-owls-home'],
    ],
  );
  res = await importCsv(w, 'date,time,opponent,venue,home_away\n2027-01-16,11:00,Westend Wolves,"Westend, hall B",home');
  t.equal(res.statusCode, 303, 'comma separated');
  t.equal((await fixturesOf(w)).at(-1)?.venue, 'Westend, hall B');
});

t.test('public pages and feeds: the team page lists a fixture, the calendar keeps its UID as it moves and is cancelled', async (t) => {
  const w = await publicClubWorld(t);
  await w.setClubPage(true);
  await w.setTeam(w.u14, {});
  t.equal((await announce(w, FORM)).statusCode, 303);
  const [fixture] = await fixturesOf(w);
  const id = fixture?.fixtureId ?? '';
  const uid = `fixture-${id}@matchlog.test`;

  const page = await text(w.base, `${w.clubPath}/u14-girls`);
  t.match(
    page,
    /<h2>Next matches<\/h2>\s*<ul class="fixtures"[^>]*><li class="fixture"><div class="row">/,
    'listed under next matches, with no match page to link to',
  );
  t.match(page, /Riverside Rockets U14/);
  t.match(page, /Lakeside Hall/);
  t.match(await text(w.base, w.clubPath), /Riverside Rockets U14/, 'and on the club page');

  const calendarPath = `${w.clubPath}/u14-girls/calendar.ics`;
  let event = calendarEvents(await text(w.base, calendarPath)).get(uid);
  t.equal(event?.start, '2026-12-12T09:00:00.000Z');
  t.equal(event?.summary, 'U14 Girls vs Riverside Rockets U14');
  t.equal(event?.location, 'Lakeside Hall');
  t.equal(event?.sequence, 0);
  t.equal(event?.status, 'CONFIRMED');

  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  let res = await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/${id}`, { ...FORM, time: 'noon' });
  t.equal(res.statusCode, 400, 'a change is checked like an announcement');
  t.equal((await fixturesOf(w))[0]?.sequence, 0, 'and a refused one changes nothing');
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  res = await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/${id}`, { ...FORM, time: '11:30' });
  t.equal(res.statusCode, 303);
  event = calendarEvents(await text(w.base, calendarPath)).get(uid);
  t.equal(event?.start, '2026-12-12T10:30:00.000Z', 'the moved time, under the same UID');
  t.equal(event?.sequence, 1, 'SEQUENCE grew');
  const atom = await text(w.base, `${w.clubPath}/u14-girls/feed.atom`);
  t.match(atom, /Changed: U14 Girls vs Riverside Rockets U14, 2026-12-12 10:30 UTC/, 'the Atom feed tells the change');

  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  res = await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/${id}/cancel`, {});
  t.equal(res.statusCode, 303);
  event = calendarEvents(await text(w.base, calendarPath)).get(uid);
  t.equal(event?.status, 'CANCELLED', 'a cancelled fixture stays in the calendar, cancelled');
  t.equal(event?.sequence, 2);
  t.notMatch(await text(w.base, `${w.clubPath}/u14-girls`), /Riverside Rockets U14/, 'no longer under next matches');
  t.match(await text(w.base, `${w.clubPath}/u14-girls/feed.atom`), /Cancelled: U14 Girls vs Riverside Rockets U14/);
  await w.admin.get(`/dashboard/teams/${w.u14}/fixtures`);
  res = await w.admin.post(`/dashboard/teams/${w.u14}/fixtures/${id}`, FORM);
  t.equal(res.statusCode, 400, 'a cancelled fixture is not changed');
  t.match(res.body, /cancelled; announce a new one instead/);
});

t.test('a fixture naming the app’s match id gives way to the match once it syncs into the team', async (t) => {
  const w = await publicClubWorld(t);
  await w.setClubPage(true);
  await w.setTeam(w.u14, {});
  t.equal((await announce(w, { ...FORM, opponent: 'Harbour Hawks', matchId: 'u14-hawks' })).statusCode, 303);
  const [fixture] = await fixturesOf(w);
  const calendarPath = `${w.clubPath}/u14-girls/calendar.ics`;
  t.ok(calendarEvents(await text(w.base, calendarPath)).has(`fixture-${fixture?.fixtureId}@matchlog.test`), 'the fixture, before the match syncs');

  const scheduled = { status: 'scheduled', startedAt: '2026-12-12T09:00:00Z', venue: 'Lakeside Hall', sets: [], playerStats: [], actions: [] };
  t.equal(await w.uploadMatch('u14-hawks', { ...scheduled, awayTeam: { name: 'Harbour Hawks', setsWon: 0 } }), 201);
  const deadline = Date.now() + 30_000;
  let uids = [...calendarEvents(await text(w.base, calendarPath)).keys()];
  while (!uids.includes('u14-hawks@matchlog.test') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    uids = [...calendarEvents(await text(w.base, calendarPath)).keys()];
  }
  t.same(uids, ['u14-hawks@matchlog.test'], 'the match is listed, the fixture no longer separately');
  const page = await text(w.base, `${w.clubPath}/u14-girls`);
  t.equal(page.match(/Harbour Hawks/g)?.length, 1, 'once on the team page');
  t.match(page, /href="\/match\/u14-hawks"/);
});
