import { readFileSync } from 'node:fs';
import { dashboardClient } from './browserless.js';
import { startTestApp } from './testApp.js';

/** The U14 fixture (test/fixtures/u14-girls-match.json): its home side is the club's team. */
const u14Fixture = () => JSON.parse(readFileSync(new URL('../fixtures/u14-girls-match.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const TEAM_TOKEN = 'u14-girls-write-token-0123456789';

/**
 * A club "Lakeside VC" with teams "U14 Girls" and "Seniors", over a listening server: its admin's
 * dashboard client, ids, and helpers to upload the team's matches and set what the public sees.
 */
export async function publicClubWorld(t: Parameters<typeof startTestApp>[0], env: Record<string, string> = {}) {
  const s = await startTestApp(t, env);
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = dashboardClient(base);
  await admin.get('/dashboard/signup');
  await admin.post('/dashboard/signup', { clubName: 'Lakeside VC', email: 'admin@lakeside.test', password: 'correct horse battery' });
  const teamIds: Record<string, string> = {};
  for (const name of ['U14 Girls', 'Seniors']) {
    await admin.get('/dashboard/teams');
    await admin.post('/dashboard/teams', { name });
  }
  const teams = (await admin.get('/dashboard/teams')).body;
  for (const [, id, name] of teams.matchAll(/<td><code class="id">([0-9a-z]+)<\/code><\/td><td>([^<]+)<\/td>/g)) teamIds[name!] = id!;
  const clubId = /data-testid="club-id">([0-9a-z]{16})</.exec((await admin.get('/dashboard/connect')).body)?.[1] ?? '';
  const u14 = teamIds['U14 Girls'] ?? '';

  /** Uploads a match of the U14 team (its home side) with these fields over the fixture's (with `headers` such as an app key). */
  async function uploadMatch(id: string, fields: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST', headers: Record<string, string> = {}) {
    const fixture = u14Fixture();
    const homeTeam = { ...(fixture.homeTeam as Record<string, unknown>), teamId: u14 };
    const body = { ...fixture, id, clubId, teamId: u14, homeTeam, ...fields };
    const res = await fetch(method === 'POST' ? `${base}/api/matches` : `${base}/api/matches/${id}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-write-token': TEAM_TOKEN, ...headers },
      body: JSON.stringify(body),
    });
    await res.text();
    return res.status;
  }

  async function setTeam(teamId: string, settings: { publicPage?: boolean; privacy?: string; roster?: string; indexing?: string }) {
    await admin.get('/dashboard/teams/public');
    const { publicPage = true, privacy = 'full', roster = 'shown', indexing = 'noindex' } = settings;
    return admin.post(`/dashboard/teams/${teamId}/publicity`, { ...(publicPage ? { publicPage: 'on' } : {}), privacy, roster, indexing });
  }

  async function setClubPage(on: boolean) {
    await admin.get('/dashboard/teams/public');
    return admin.post('/dashboard/teams/public-page', { publicPage: on ? 'on' : 'off' });
  }

  return { ...s, base, admin, clubId, teamIds, u14, uploadMatch, setTeam, setClubPage, clubPath: `/c/lakeside-vc-${clubId}` };
}

/** A season of the U14 team: two results, a live match and a scheduled one. */
export async function u14Season(world: Awaited<ReturnType<typeof publicClubWorld>>) {
  const away = (name: string, setsWon: number) => ({ name, setsWon });
  const home = (setsWon: number) => ({ ...(u14Fixture().homeTeam as Record<string, unknown>), teamId: world.u14, setsWon });
  await world.uploadMatch('u14-w1', { startedAt: '2026-03-07T10:00:00Z' });
  await world.uploadMatch('u14-l1', { startedAt: '2026-03-14T10:00:00Z', homeTeam: home(1), awayTeam: away('Hillcrest Hawks U14', 3) });
  await world.uploadMatch('u14-live', {
    startedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
    status: 'live',
    homeTeam: home(1),
    awayTeam: away('Northgate Volley U14', 1),
    sets: [
      { set: 1, home: 25, away: 20 },
      { set: 2, home: 18, away: 25 },
      { set: 3, home: 12, away: 10 },
    ],
  });
  await world.uploadMatch('u14-next', {
    startedAt: '2026-12-05T09:30:00Z',
    status: 'scheduled',
    venue: 'Riverside Arena',
    homeTeam: home(0),
    awayTeam: away('Riverside Rockets U14', 0),
    sets: [],
    playerStats: [],
    actions: [],
  });
}
