import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { dashboardClient } from '../helpers/browserless.js';
import { startTestApp } from '../helpers/testApp.js';

const password = 'correct horse battery';

/** A signed-up club with a U14 team, over a real listening server; its dashboard client and the team's id. */
async function clubWithTeam(t: Parameters<typeof startTestApp>[0]) {
  const s = await startTestApp(t);
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const client = dashboardClient(base);
  await client.get('/dashboard/signup');
  await client.post('/dashboard/signup', { clubName: 'Lakeside VC', email: 'admin@lakeside.test', password });
  await client.get('/dashboard/teams');
  await client.post('/dashboard/teams', { name: 'U14 Girls' });
  const teams = await client.get('/dashboard/teams');
  const teamId = /action="\/dashboard\/teams\/([0-9a-z]+)\/aliases"/.exec(teams.body)?.[1] ?? '';
  return { ...s, client, teamId, teamsPage: teams.body };
}

t.test('a team is private by default; the admin sets its public page, privacy, roster and indexing', async (t) => {
  const s = await clubWithTeam(t);
  t.match(s.teamsPage, /href="\/dashboard\/teams\/public"/, 'Teams links to the public pages settings');
  let page = await s.client.get('/dashboard/teams/public');
  t.equal(page.statusCode, 200);
  t.match(page.body, /Club page: <strong>off<\/strong>/);
  t.notMatch(page.body, /name="publicPage" value="on" checked/, 'the team page is off');
  t.match(page.body, /<option value="noindex" selected>/, 'noindex by default');
  t.match(page.body, /<option value="hidden" selected>/, 'roster hidden by default');

  let res = await s.client.post(`/dashboard/teams/${s.teamId}/publicity`, { publicPage: 'on', privacy: 'initials', roster: 'shown', indexing: 'noindex' });
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/dashboard/teams/public?done=publicity-saved');
  res = await s.client.post('/dashboard/teams/public-page', { publicPage: 'on' });
  t.equal(res.statusCode, 303);
  page = await s.client.get('/dashboard/teams/public?done=publicity-saved');
  t.match(page.body, /Saved: public pages show this from now on/);
  t.match(page.body, /Club page: <strong>on<\/strong>/);
  t.match(page.body, /name="publicPage" value="on" checked/);
  t.match(page.body, /<option value="initials" selected>/);
  t.match(page.body, /<option value="shown" selected>/);

  const club = await createClubCommands({ eventStore: s.engine.eventStore }).loadClub(
    /data-testid="club-id">([0-9a-z]{16})</.exec((await s.client.get('/dashboard/connect')).body)?.[1] ?? '',
  );
  t.same(club?.publicity?.[s.teamId], { publicPage: true, privacy: 'initials', roster: 'shown', indexing: 'noindex' }, 'kept as a club event');
  t.equal(club?.publicPage, true);
});

t.test('the forms refuse what they cannot apply, and change nothing', async (t) => {
  const s = await clubWithTeam(t);
  let res = await s.client.post(`/dashboard/teams/${s.teamId}/publicity`, { privacy: 'initials', roster: 'shown', indexing: 'index' }, { csrf: null });
  t.equal(res.statusCode, 403, 'no CSRF token');
  await s.client.get('/dashboard/teams/public');
  res = await s.client.post(`/dashboard/teams/${s.teamId}/publicity`, { privacy: 'nicknames', roster: 'shown', indexing: 'index' });
  t.equal(res.statusCode, 400, 'an unknown privacy level');
  t.match(res.body, /privacy/);
  await s.client.get('/dashboard/teams/public');
  res = await s.client.post('/dashboard/teams/nosuchteam/publicity', { privacy: 'initials', roster: 'shown', indexing: 'index' });
  t.equal(res.statusCode, 404, 'no such team');
  const page = await s.client.get('/dashboard/teams/public');
  t.match(page.body, /<option value="full" selected>/, 'still as it was');
  t.match(page.body, /<option value="noindex" selected>/);
});
