import t from 'tap';
import { publicClubWorld, u14Season } from '../helpers/publicClub.js';

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
};

t.test('club and team pages are 404 until switched on; a private team stays 404 (never 403)', async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  t.equal((await get(w.base, w.clubPath)).status, 404, 'the club page is off by default');
  t.equal((await get(w.base, `${w.clubPath}/u14-girls`)).status, 404, 'and so is the team page');
  await w.setClubPage(true);
  const club = await get(w.base, w.clubPath);
  t.equal(club.status, 200, 'the club page once on');
  t.notMatch(club.text, /U14 Girls/, 'lists no private team');
  t.equal((await get(w.base, `${w.clubPath}/u14-girls`)).status, 404, 'a private team: 404');
  t.equal((await get(w.base, `${w.clubPath}/seniors`)).status, 404);
  const missing = await get(w.base, `${w.clubPath}/nobody`);
  t.equal(missing.status, 404, 'a team that does not exist answers the same');
  t.match(missing.text, /Page not found/);
  t.equal((await get(w.base, '/c/lakeside-vc-zzzzzzzzzzzzzzzz')).status, 404, 'no such club');
  await w.setTeam(w.u14, { publicPage: true });
  t.equal((await get(w.base, `${w.clubPath}/u14-girls`)).status, 200, 'the team page once on');
  await w.setClubPage(false);
  t.equal((await get(w.base, `${w.clubPath}/u14-girls`)).status, 404, "the club page off takes its teams' pages down");
});

t.test('the team page: next matches, results with W/L, live marked, season record, leaders, roster by privacy, links to the match pages', async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  await w.setClubPage(true);
  await w.setTeam(w.u14, { privacy: 'initials', roster: 'shown', indexing: 'noindex' });
  const page = await get(w.base, `${w.clubPath}/u14-girls`);
  t.equal(page.status, 200);
  t.equal(page.headers.get('x-robots-tag'), 'noindex');
  t.match(page.text, /<meta name="robots" content="noindex">/);
  const [next, results] = page.text.split('<h2>Results</h2>');
  t.match(next, /Riverside Rockets U14/, 'the scheduled match under Next matches');
  t.match(next, /Riverside Arena/, 'with its venue');
  t.match(results, /href="\/match\/u14-w1"/, 'results link to the match pages');
  t.match(results, /class="result rW" title="Won">W</);
  t.match(results, /class="result rL" title="Lost">L</);
  t.match(results, /<li class="fixture live"><a href="\/match\/u14-live">/, 'the live match marked live');
  t.match(page.text, /<dt>Played<\/dt><dd>2<\/dd>/);
  t.match(page.text, /<dt>Sets for–against<\/dt><dd>4–4<\/dd>/, '3–1 and 1–3');
  t.match(page.text, /title="Kills">K</, 'leaders per sport stat');
  t.match(page.text, /<span class="number">#7<\/span> <span class="name">A\. B\.<\/span>/, 'the roster by the privacy level');
  t.notMatch(page.text, /Annalena|Brightwater|Quellenberg|Okonkwo/, 'no name beyond the level');

  await w.setTeam(w.u14, { privacy: 'numbers', roster: 'hidden', indexing: 'index' });
  const again = await get(w.base, `${w.clubPath}/u14-girls`);
  t.notMatch(again.text, /<h2>Roster<\/h2>/, 'roster hidden');
  t.equal(again.headers.get('x-robots-tag'), null, 'indexed when allowed');
  t.notMatch(again.text, /name="robots"/);
  t.match(again.text, /<span class="name">#7<\/span> <span class="value">/, 'leaders by shirt number');

  const club = await get(w.base, w.clubPath);
  t.match(club.text, new RegExp(`href="${w.clubPath}/u14-girls"`), 'the club page links the public team');
  t.match(club.text, /Riverside Rockets U14/, 'and its next match');
  t.match(club.text, /href="\/match\/u14-w1"/, 'and its latest results');
});

t.test('a match announced ahead (status scheduled, start time, venue) is listed under next matches; its page says when it starts', async (t) => {
  const w = await publicClubWorld(t);
  await u14Season(w);
  const page = await get(w.base, '/match/u14-next');
  t.equal(page.status, 200);
  t.match(page.text, /Starts <time datetime="2026-12-05T09:30:00.000Z"/, 'the match page says when it starts');
  t.match(page.text, /Riverside Arena/, 'and where');
  t.match(page.text, /Scheduled/);
});
