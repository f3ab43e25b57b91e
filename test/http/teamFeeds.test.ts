import { parseFeed } from '@rowanmanning/feed-parser';
import ICAL from 'ical.js';
import t from 'tap';
import { publicClubWorld, u14Season } from '../helpers/publicClub.js';

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The calendar's events as ical.js reads them, by UID. */
function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return new Map(
    calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      return [
        event.uid,
        {
          summary: event.summary,
          location: event.location,
          start: event.startDate.toJSDate().toISOString(),
          sequence: event.sequence,
          stamp: String(component.getFirstPropertyValue('dtstamp')),
          modified: String(component.getFirstPropertyValue('last-modified')),
        },
      ];
    }),
  );
}

t.test("a team's calendar (RFC 5545, parsed by ical.js): stable UIDs, SEQUENCE and LAST-MODIFIED move when a start time changes", async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  const path = `${w.clubPath}/u14-girls/calendar.ics`;
  t.equal((await get(w.base, path)).status, 404, 'no calendar while the team page is off');
  await w.setClubPage(true);
  await w.setTeam(w.u14, { privacy: 'initials' });
  const first = await get(w.base, path);
  t.equal(first.status, 200);
  t.equal(first.type, 'text/calendar; charset=utf-8');
  const before = events(first.text);
  t.same([...before.keys()].sort(), ['u14-l1@matchlog.test', 'u14-live@matchlog.test', 'u14-next@matchlog.test', 'u14-w1@matchlog.test']);
  const next = before.get('u14-next@matchlog.test')!;
  t.equal(next.summary, 'Lakeside VC U14 Girls vs Riverside Rockets U14');
  t.equal(next.location, 'Riverside Arena');
  t.equal(next.start, '2026-12-05T09:30:00.000Z');
  t.equal(before.get('u14-w1@matchlog.test')!.summary, 'Lakeside VC U14 Girls 3–1 Riverside Rockets U14', 'a result carries its score');
  t.notMatch(first.text, /Annalena|Brightwater/, 'no player in the calendar');

  // The match is moved an hour later: the same UID, a higher SEQUENCE, a later LAST-MODIFIED (whole seconds: the next one).
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) <= Math.floor(Date.parse(next.modified) / 1000) || Math.floor(Date.now() / 1000) === second) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const moved = { status: 'scheduled', startedAt: '2026-12-05T10:30:00Z', venue: 'Riverside Arena', sets: [], playerStats: [], actions: [] };
  t.equal(await w.uploadMatch('u14-next', { ...moved, awayTeam: { name: 'Riverside Rockets U14', setsWon: 0 } }, 'PUT'), 200);
  let after = events((await get(w.base, path)).text).get('u14-next@matchlog.test');
  for (let tries = 0; after?.start !== '2026-12-05T10:30:00.000Z' && tries < 100; tries += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    after = events((await get(w.base, path)).text).get('u14-next@matchlog.test');
  }
  t.equal(after?.start, '2026-12-05T10:30:00.000Z', 'the new start time');
  t.ok((after?.sequence ?? 0) > next.sequence, `SEQUENCE grew (${next.sequence} → ${after?.sequence})`);
  t.ok((after?.modified ?? '') > next.modified, 'LAST-MODIFIED moved');
  t.ok((after?.stamp ?? '') > next.stamp, 'DTSTAMP moved');
});

t.test("a team's Atom feed (parsed by a feed parser): results and schedule changes, each linking to its match page", async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  await w.setClubPage(true);
  await w.setTeam(w.u14, {});
  const page = await get(w.base, `${w.clubPath}/u14-girls`);
  t.match(page.text, /href="[^"]+\/u14-girls\/feed\.atom"/, 'the team page offers the Atom feed');
  t.match(page.text, /href="[^"]+\/u14-girls\/calendar\.ics"/, 'and the calendar');
  t.match(page.text, /<link rel="alternate" type="application\/atom\+xml"/);
  const res = await get(w.base, `${w.clubPath}/u14-girls/feed.atom`);
  t.equal(res.status, 200);
  t.equal(res.type, 'application/atom+xml; charset=utf-8');
  const feed = parseFeed(res.text);
  t.equal(feed.title, 'U14 Girls · Lakeside VC: results and schedule');
  const titles = feed.items.map((item) => item.title);
  t.ok(titles.includes('Result: Lakeside VC U14 Girls 3–1 Riverside Rockets U14'), 'a result');
  t.ok(titles.includes('Announced: Lakeside VC U14 Girls vs Riverside Rockets U14, 2026-12-05 09:30 UTC'), 'a match announced');
  t.ok(titles.includes('Live: Lakeside VC U14 Girls 1–1 Northgate Volley U14'), 'a live match');
  t.same(
    feed.items.map((item) => item.url).sort(),
    ['u14-l1', 'u14-live', 'u14-next', 'u14-w1'].map((id) => `http://matchlog.test/match/${id}`),
    'each links to its match page',
  );
  t.equal(new Set(feed.items.map((item) => item.id)).size, 4, 'one entry id per match version');
  await w.setTeam(w.u14, { publicPage: false });
  t.equal((await get(w.base, `${w.clubPath}/u14-girls/feed.atom`)).status, 404, 'gone with the team page');
});
