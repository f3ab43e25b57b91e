import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { dashboardClient } from '../helpers/browserless.js';
import { startTestApp } from '../helpers/testApp.js';

/**
 * Issue 61: with a privacy level set for a team, a crawl of every public page and API read of its
 * match finds no full name of its players (names from the fixture); the write token's holder and
 * the stored bytes keep what was uploaded.
 */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/u14-girls-match.json', import.meta.url), 'utf8')) as {
  homeTeam: Record<string, unknown>;
  playerStats: { name?: string; firstName?: string; lastName?: string; team: string; stats: Record<string, number> }[];
};
const team = fixture.playerStats.filter((player) => player.team === 'home');
const FULL_NAMES = team.map((player) => player.name ?? `${player.firstName} ${player.lastName}`);
const FAMILY_NAMES = FULL_NAMES.map((name) => name.split(' ').at(-1) ?? name);
/** The names the payload itself writes whole (one player comes as firstName and lastName). */
const UPLOADED_WHOLE = team.flatMap((player) => (player.name === undefined ? [] : [player.name]));
const TOKEN = 'u14-girls-write-token-0123456789';

async function world(t: Test) {
  const s = await startTestApp(t);
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = dashboardClient(base);
  await admin.get('/dashboard/signup');
  await admin.post('/dashboard/signup', { clubName: 'Lakeside VC', email: 'admin@lakeside.test', password: 'correct horse battery' });
  await admin.get('/dashboard/teams');
  await admin.post('/dashboard/teams', { name: 'U14 Girls' });
  const teams = (await admin.get('/dashboard/teams')).body;
  const teamId = /action="\/dashboard\/teams\/([0-9a-z]+)\/aliases"/.exec(teams)?.[1] ?? '';
  const clubId = /data-testid="club-id">([0-9a-z]{16})</.exec((await admin.get('/dashboard/connect')).body)?.[1] ?? '';
  const upload = async (payload: unknown, method: 'POST' | 'PUT') => {
    const res = await fetch(method === 'POST' ? `${base}/api/matches` : `${base}/api/matches/u14-final`, {
      method,
      headers: { 'content-type': 'application/json', 'x-write-token': TOKEN },
      body: JSON.stringify(payload),
    });
    t.ok(res.status === 201 || res.status === 200, `${method} stored (${res.status})`);
  };
  const first = { ...fixture, id: 'u14-final', clubId, teamId, homeTeam: { ...fixture.homeTeam, teamId } };
  await upload(first, 'POST');
  // A second version: a stat corrected, so the history's diff names players.
  const second = { ...first, playerStats: fixture.playerStats.map((p, i) => (i === 0 ? { ...p, stats: { ...p.stats, kills: 13 } } : p)) };
  await upload(second, 'PUT');
  const setPrivacy = async (privacy: string) => {
    await admin.get('/dashboard/teams/public');
    const res = await admin.post(`/dashboard/teams/${teamId}/publicity`, { privacy, roster: 'shown', indexing: 'noindex' });
    t.equal(res.statusCode, 303, `privacy set to ${privacy}`);
  };
  return { base, setPrivacy };
}

/** Every public page and API read of the match: path → text read. */
const PUBLIC_READS = [
  '/match/u14-final',
  '/match/u14-final?part=main',
  '/match/u14-final?part=plays&page=1',
  '/match/u14-final?revision=0',
  '/match/u14-final/embed',
  '/match/u14-final/embed?part=main',
  '/match/u14-final/history',
  '/api/matches/u14-final',
  '/api/matches/u14-final?revision=0',
  '/api/matches/u14-final/history',
];

async function crawl(base: string, headers: Record<string, string> = {}) {
  const read = new Map<string, { status: number; text: string }>();
  for (const path of PUBLIC_READS) {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } });
    read.set(path, { status: res.status, text: await res.text() });
  }
  return read;
}

const namesIn = (text: string, names: string[]) => names.filter((name) => text.includes(name) || text.includes(JSON.stringify(name).slice(1, -1)));

t.test('a crawl finds full names before privacy is set, none at each privacy level, and them again at "full"', async (t) => {
  const { base, setPrivacy } = await world(t);
  const before = await crawl(base);
  t.ok(namesIn(before.get('/match/u14-final')!.text, FULL_NAMES).length === FULL_NAMES.length, 'the page names the players in full by default');
  t.ok(namesIn(before.get('/api/matches/u14-final/history')!.text, FULL_NAMES).length > 0, "the history's diffs name a player by default");

  for (const level of ['first-initial', 'initials', 'numbers']) {
    await setPrivacy(level);
    const seen = await crawl(base);
    const hidden = level === 'first-initial' ? FAMILY_NAMES : [...FULL_NAMES, ...FAMILY_NAMES];
    for (const [path, { status, text }] of seen) {
      t.equal(status, 200, `${level}: ${path} answers`);
      t.same(namesIn(text, hidden), [], `${level}: ${path} names no player of the team`);
    }
    t.match(seen.get('/api/matches/u14-final')!.text, /Rita Visiting/, `${level}: the other side's players as uploaded`);
    const bytes = await fetch(`${base}/api/matches/u14-final/payload?revision=0`);
    t.equal(bytes.status, 403, `${level}: the exact bytes are refused to anonymous readers`);
    t.match(((await bytes.json()) as { message: string }).message, /X-Write-Token/, 'saying what to send');
  }

  const holder = await crawl(base, { 'x-write-token': TOKEN });
  t.same(namesIn(holder.get('/api/matches/u14-final')!.text, UPLOADED_WHOLE), UPLOADED_WHOLE, "the write token's holder reads what it uploaded");
  const exact = await fetch(`${base}/api/matches/u14-final/payload?revision=0`, { headers: { 'x-write-token': TOKEN } });
  t.equal(exact.status, 200, 'and the exact bytes (the receipt proves them)');
  t.same(namesIn(await exact.text(), UPLOADED_WHOLE), UPLOADED_WHOLE);
  const wrong = await fetch(`${base}/api/matches/u14-final/payload?revision=0`, { headers: { 'x-write-token': `${TOKEN}x` } });
  t.equal(wrong.status, 403, 'a wrong token reads nothing more');

  await setPrivacy('full');
  const again = await crawl(base);
  t.same(namesIn(again.get('/match/u14-final')!.text, FULL_NAMES), FULL_NAMES, 'back to full names at once: the setting is read at each request');
});
