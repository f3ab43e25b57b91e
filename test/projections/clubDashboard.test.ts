import t from 'tap';
import { statRates } from '../../src/domain/statRates.js';
import type { ReadModelReader } from '../../src/readmodel/readModel.js';
import { type ClubMatchDoc, clubDashboardProjection, playerLinesOf, readClubMatch, readClubMatchActions, readClubMatches } from '../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals, type SeasonFilter } from '../../projections/clubSeasonTotals.js';
import { MAX_COPIED_PLAYERS, MAX_TRACKED_STATS } from '../../projections/clubSyncSource.js';
import { readAppKeyUsage, readSyncLog, syncStatusProjection } from '../../projections/syncStatus.js';
import { fixture } from '../helpers/fixtures.js';
import { createSyncWorld } from '../helpers/syncWorld.js';

const projections = [clubDashboardProjection, syncStatusProjection];

/** A generated payload that names the club and team (and keeps the fixture's own shape). */
function payload(clubId: string, teamId: string, options: { seed?: number; sport?: 'volleyball' | 'basketball'; id?: string; edit?: (body: Record<string, unknown>) => void } = {}) {
  const body = fixture({ seed: options.seed ?? 1, sport: options.sport ?? 'volleyball', club: 'CLUB', team: 'TEAM' });
  Object.assign(body, { clubId, teamId }, options.id ? { id: options.id } : {});
  options.edit?.(body);
  return JSON.stringify(body);
}

/** The club's players over the matches that count, as the Players and Stats pages read them. */
const totalsOf = async (store: ReadModelReader, clubId: string, filter: SeasonFilter = {}) => playerTotalsOf(await readSeasonTotals(store, clubId, filter));
/** The payload says the club's team is the home side. */
const home = (b: Record<string, unknown>) => Object.assign(b, { side: 'home' });

t.test('every outcome in both enforcement modes', async (t) => {
  const world = createSyncWorld(t);
  const lakeside = await world.club('Lakeside VC', ['U16 Women', 'U18 Men']);
  const other = await world.club('Hillcrest');
  const revoked = await world.clubs.issueAppKey(lakeside.clubId, 'old tablet', world.context);
  await world.clubs.revokeAppKey(lakeside.clubId, revoked.keyId, world.context);
  const u18 = lakeside.teams[1]?.teamId ?? '';

  const cases = [
    { id: 'log-valid', mode: 'log', key: lakeside.key, crm: false, outcome: 'synced', reason: null, copied: true },
    { id: 'log-missing', mode: 'log', key: null, crm: false, outcome: 'unauthenticated', reason: 'missing_key', copied: true },
    { id: 'log-typo', mode: 'log', key: `${lakeside.key.slice(0, -1)}${lakeside.key.endsWith('x') ? 'y' : 'x'}`, crm: false, outcome: 'unauthenticated', reason: 'malformed_key', copied: true },
    { id: 'log-other-club', mode: 'log', key: other.key, crm: false, outcome: 'unauthenticated', reason: 'unknown_key', copied: true },
    { id: 'log-revoked', mode: 'log', key: revoked.key, crm: false, outcome: 'unauthenticated', reason: 'revoked_key', copied: true },
    { id: 'enforce-valid', mode: 'enforce', key: lakeside.key, crm: false, outcome: 'synced', reason: null, copied: true },
    { id: 'enforce-missing', mode: 'enforce', key: null, crm: true, outcome: 'skipped', reason: 'missing_key', copied: false },
    { id: 'enforce-typo', mode: 'enforce', key: 'mlk_nonsense', crm: true, outcome: 'skipped', reason: 'malformed_key', copied: false },
    { id: 'enforce-other-club', mode: 'enforce', key: other.key, crm: true, outcome: 'skipped', reason: 'unknown_key', copied: false },
    { id: 'enforce-revoked', mode: 'enforce', key: revoked.key, crm: true, outcome: 'skipped', reason: 'revoked_key', copied: false },
  ] as const;

  for (const [i, c] of cases.entries()) {
    const result = await world.upload(payload(lakeside.clubId, u18, { seed: i + 1, id: c.id }), { appKey: c.key, mode: c.mode });
    t.equal(result.syncSkipped, c.crm, `${c.id}: crmSync ${c.crm ? 'skipped_auth' : 'absent'}`);
  }
  for (const mode of ['log', 'enforce'] as const) {
    const noClub = await world.upload(payload('zzzzzzzzzzzzzzzz', u18, { id: `${mode}-no-club` }), { appKey: lakeside.key, mode });
    t.equal(noClub.syncSkipped, true, `${mode}: a club id naming no club is skipped`);
    const noTeam = await world.upload(payload(lakeside.clubId, 'nosuchteam', { id: `${mode}-no-team` }), { appKey: lakeside.key, mode });
    t.equal(noTeam.syncSkipped, true, `${mode}: a team id that is not the club's is skipped`);
  }

  const store = await world.project(projections);
  const { rows } = await readSyncLog(store, lakeside.clubId, { limit: 100 });
  for (const c of cases) {
    const row = rows.find((r) => r.matchId === c.id);
    t.match(row, { outcome: c.outcome, reason: c.reason, teamId: u18 }, `${c.id}: Sync status row`);
    t.equal(row?.playersCopied ?? -1, c.copied ? 24 : 0, `${c.id}: players copied`);
    t.equal((await readClubMatch(store, lakeside.clubId, c.id)) !== null, c.copied, `${c.id}: ${c.copied ? 'in' : 'not in'} the dashboard`);
  }
  t.match(rows.find((r) => r.matchId === 'log-revoked'), { keyId: revoked.keyId }, 'a revoked key is named by its id');
  t.match(rows.find((r) => r.matchId === 'log-valid'), { keyId: lakeside.keyId, outcome: 'synced' }, 'synced with key X');
  for (const mode of ['log', 'enforce']) {
    t.match(rows.find((r) => r.matchId === `${mode}-no-team`), { outcome: 'skipped', reason: 'no_such_team', playersCopied: 0 });
    t.equal(rows.find((r) => r.matchId === `${mode}-no-club`), undefined, 'no row for a club that does not exist');
  }
  t.same(rows.map((r) => r.position), [...rows.map((r) => r.position)].sort((a, b) => b - a), 'newest first');
  t.equal((await readSyncLog(store, other.clubId, { limit: 10 })).total, 0, "another club's key does not show in that club's status");
  t.same((await readSyncLog(store, lakeside.clubId, { outcome: 'skipped', limit: 100 })).rows.map((r) => r.matchId).sort(), ['enforce-missing', 'enforce-other-club', 'enforce-revoked', 'enforce-typo', 'enforce-no-team', 'log-no-team'].sort(), 'filter by outcome');
  const usage = await readAppKeyUsage(store, lakeside.clubId);
  t.match(usage.get(lakeside.keyId), { uses: 2 }, 'last use of the key that synced (log-valid, enforce-valid)');
  t.equal(usage.get(revoked.keyId), undefined, 'a revoked key was not used');
});

t.test('an upload retried ten times counts once; a replacement replaces the copy', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const text = payload(club.clubId, club.teamId, { id: 'retried', edit: home });
  for (let i = 0; i < 10; i += 1) await world.upload(text, { appKey: club.key });
  let store = await world.project(projections);
  const once = await world.project(projections, 1);
  t.same(await world.documents(store, projections), await world.documents(once, projections), 'applying every event twice gives the same documents as once');

  const matches = await readClubMatches(store, club.clubId);
  t.equal(matches.length, 1, 'one copy');
  const body = JSON.parse(text) as { playerStats: { playerId: string; team: string; stats: Record<string, number> }[] };
  const kills = body.playerStats.filter((p) => p.team === 'home').reduce((sum, p) => sum + (p.stats.kills ?? 0), 0);
  const players = await totalsOf(store, club.clubId);
  t.equal(players.length, 12, "the home side's players");
  t.equal(players.reduce((sum, p) => sum + (p.totals.kills ?? 0), 0), kills, 'kills counted once');
  t.ok(players.every((p) => p.matchesPlayed === 1), 'each player played one match');
  t.equal((await readSyncLog(store, club.clubId, { limit: 100 })).total, 10, 'Sync status lists every attempt');
  t.match((await readAppKeyUsage(store, club.clubId)).get(club.keyId), { uses: 10 });

  // The app corrects the match: one player removed, one stat changed.
  const corrected = payload(club.clubId, club.teamId, {
    id: 'retried',
    edit: (b) => {
      home(b);
      const list = b.playerStats as { playerId: string; stats: Record<string, number> }[];
      b.playerStats = list.filter((p) => p.playerId !== 'h-01').map((p) => (p.playerId === 'h-02' ? { ...p, stats: { ...p.stats, kills: 99 } } : p));
    },
  });
  await world.upload(corrected, { appKey: club.key, via: 'PUT' });
  store = await world.project(projections);
  const after = await totalsOf(store, club.clubId);
  t.equal(after.find((p) => p.playerId === 'h-01'), undefined, 'a player removed from the payload leaves the totals');
  t.equal(after.find((p) => p.playerId === 'h-02')?.totals.kills, 99, 'stats are the new ones');
  t.equal(after.length, 11);
});

t.test('a skipped re-upload leaves the copy; a sync to another team moves it', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['U16', 'U18']);
  const [u16, u18] = club.teams.map((team) => team.teamId);
  await world.upload(payload(club.clubId, u16 ?? '', { id: 'm' }), { appKey: club.key });
  await world.upload(payload(club.clubId, u16 ?? '', { id: 'm', seed: 5 }), { appKey: null, mode: 'enforce' });
  let store = await world.project(projections);
  const kept = await readClubMatch(store, club.clubId, 'm');
  t.match(kept, { teamId: u16, outcome: 'synced' }, 'the skipped sync did not touch the dashboard');
  t.equal(kept?.players[0]?.name, JSON.parse(payload(club.clubId, u16 ?? '', { id: 'm' })).playerStats[0].name, 'still the synced payload');

  await world.upload(payload(club.clubId, u18 ?? '', { id: 'm' }), { appKey: club.key });
  store = await world.project(projections);
  t.equal((await readClubMatches(store, club.clubId, { teamId: u16 })).length, 0);
  t.equal((await readClubMatches(store, club.clubId, { teamId: u18 })).length, 1, 'moved to the other team');
});

t.test('players merge across matches; the club side is copied when the payload tells it', async (t) => {
  const world = createSyncWorld(t);
  const first = fixture({ seed: 3, club: 'C', team: 'T' }) as { homeTeam: { name: string } };
  const club = await world.club('Lakeside VC', [first.homeTeam.name]);
  await world.upload(payload(club.clubId, club.teamId, { seed: 3, id: 'a' }), { appKey: club.key });
  await world.upload(payload(club.clubId, club.teamId, { seed: 4, id: 'b', edit: (b) => Object.assign(b, { side: 'away' }) }), { appKey: club.key });
  const store = await world.project(projections);
  const a = await readClubMatch(store, club.clubId, 'a');
  t.equal(a?.side, 'home', 'the team is named like the home team');
  const b = await readClubMatch(store, club.clubId, 'b');
  t.equal(b?.side, 'away', 'explicit side');
  const counted = await totalsOf(store, club.clubId);
  t.equal(counted.length, 24, "12 home players of a and 12 away players of b (different player ids)");
  t.equal(counted.filter((p) => p.playerId?.startsWith('h-')).length, 12, 'of a, only the home side counts');

  const third = await world.upload(payload(club.clubId, club.teamId, { seed: 5, id: 'c', edit: (b) => Object.assign(b, { side: 'home' }) }), { appKey: club.key });
  t.equal(third.syncSkipped, false);
  const store2 = await world.project(projections);
  const players = await totalsOf(store2, club.clubId);
  const h01 = players.find((p) => p.playerId === 'h-01');
  t.equal(h01?.matchesPlayed, 2, 'merged by playerId across matches a and c');
  t.equal(playerLinesOf(await readClubMatches(store2, club.clubId), h01?.key ?? '').length, 2, 'a line per match on the player page');
  t.ok(players.every((p) => p.teamId === club.teamId));
});

t.test('stats: every numeric stat, totals, percentages only where their inputs exist', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside', ['Volley', 'Basket']);
  const [volley, basket] = club.teams.map((team) => team.teamId);
  await world.upload(payload(club.clubId, volley ?? '', { id: 'v', edit: (b) => Object.assign(b, { side: 'home' }) }), { appKey: club.key });
  await world.upload(payload(club.clubId, basket ?? '', { id: 'b', sport: 'basketball', edit: (b) => Object.assign(b, { side: 'home' }) }), { appKey: club.key });
  const store = await world.project(projections);
  const v = await totalsOf(store, club.clubId, { teamId: volley });
  const attacker = v.find((p) => (p.totals.attacks ?? 0) > 0);
  if (attacker === undefined) throw new Error('fixture has no attacker');
  const { kills = 0, attackErrors = 0, attacks = 1 } = attacker.totals;
  t.match(statRates(attacker.totals), [{ name: 'hitting %', value: (kills - attackErrors) / attacks }]);
  t.equal(attacker.sport, 'volleyball');
  t.ok(v.every((p) => 'kills' in p.totals && 'digs' in p.totals), 'a stat any player has is tracked for all (absent means 0)');
  const b = await totalsOf(store, club.clubId, { teamId: basket });
  const shooter = b.find((p) => (p.totals['2ptAttempted'] ?? 0) + (p.totals['3ptAttempted'] ?? 0) > 0);
  t.ok(statRates(shooter?.totals ?? {}).some((r) => r.name === 'FG %'), 'basketball FG %');
  t.equal(shooter?.sport, 'basketball');
  t.equal((await totalsOf(store, club.clubId, { season: '1999/00' })).length, 0, 'season totals filter by season');
  t.same(statRates({ kills: 3 }), [], 'no rate without its inputs');
  t.same(statRates({ kills: 3, attackErrors: 1, attacks: 0 }), [], 'no rate over zero attempts');
  const seasons = (await readClubMatches(store, club.clubId, { season: '2025/26' })).length;
  t.equal(seasons, 2, 'filter by season');
  t.equal((await readClubMatches(store, club.clubId, { season: '1999/00' })).length, 0);
  const actions = await readClubMatchActions(store, club.clubId, 'v');
  t.ok((actions?.actions.length ?? 0) > 300, 'play-by-play copied');
  const doc = (await readClubMatch(store, club.clubId, 'v')) as ClubMatchDoc;
  t.equal(doc.actionCount, actions?.actions.length);
});

t.test('shapes vary: playerStats keyed by player, flat stats, garbage', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  const keyed = { clubId: club.clubId, teamId: club.teamId, side: 'home', playerStats: { p1: { name: 'Ana', number: 4, kills: 3, attacks: 5 }, p2: { name: 'Eva', kills: 1 } }, actions: 'not a list' };
  await world.upload(JSON.stringify({ ...keyed, id: 'keyed' }), { appKey: club.key });
  await world.upload(JSON.stringify({ id: 'junk', clubId: club.clubId, teamId: club.teamId, playerStats: 7, actions: [1, null, {}] }), { appKey: club.key });
  const store = await world.project(projections);
  const players = await totalsOf(store, club.clubId);
  t.match(players.find((p) => p.playerId === 'p1'), { name: 'Ana', number: '4', totals: { kills: 3, attacks: 5 } });
  t.match(players.find((p) => p.playerId === 'p2'), { totals: { kills: 1, attacks: 0 } });
  t.match(await readClubMatch(store, club.clubId, 'junk'), { players: [], actionCount: 1 }, 'degrades to what it can read');
});

t.test('names from payloads never become field names (document stores refuse "$x" and "a.b")', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  const hostile = {
    id: 'hostile',
    clubId: club.clubId,
    teamId: club.teamId,
    side: 'home',
    playerStats: { 'p.1': { name: 'Dot', stats: { $where: 1, 'a.b': 2, attack: { kills: 3 } } }, $p2: { name: 'Dollar', stats: { kills: 1 } } },
    actions: [{ playerId: 'p.1', skill: 'attack' }],
  };
  await world.upload(JSON.stringify(hostile), { appKey: club.key });
  const store = await world.project(projections);
  const fieldNames = (value: unknown): string[] =>
    Array.isArray(value) ? value.flatMap(fieldNames) : typeof value === 'object' && value !== null ? Object.entries(value).flatMap(([k, v]) => [k, ...fieldNames(v)]) : [];
  const names = fieldNames(await world.documents(store, projections)).filter((name) => !/^(clubMatches|clubMatchActions|clubSeasonTotals|clubSyncLog|appKeyUsage)$/.test(name));
  t.same(names.filter((name) => name.startsWith('$') || name.includes('.')), []);
  const players = await totalsOf(store, club.clubId);
  t.match(players.find((p) => p.playerId === 'p.1'), { totals: { $where: 1, 'a.b': 2, 'attack.kills': 3 } }, 'the stats themselves are intact');
});

t.test('rebuilding from the log gives the same documents', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  for (let i = 0; i < 3; i += 1) await world.upload(payload(club.clubId, club.teamId, { seed: i + 1, id: `m${i % 2}`, edit: home }), { appKey: i === 1 ? null : club.key });
  const a = await world.documents(await world.project(projections, 1), projections);
  const b = await world.documents(await world.project(projections, 3), projections);
  t.same(a, b);
  t.same(Object.keys(a).sort(), ['appKeyUsage', 'clubMatchActions', 'clubMatches', 'clubSeasonTotals', 'clubSyncLog'], 'no collection of payloads waiting for their sync outcome');
});

t.test("the club's side: ambiguous → unknown (counts for neither side) → the admin settles it → a rebuild gives the same; later uploads keep it", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['Lakeside Herons']);
  const named = (home: string, away: string) => (b: Record<string, unknown>) => Object.assign(b, { homeTeam: { name: home, setsWon: 3 }, awayTeam: { name: away, setsWon: 1 } });
  // Given an upload whose sides are named like neither the team nor an alias
  await world.upload(payload(club.clubId, club.teamId, { id: 'm', edit: named('Riverside', 'Hillcrest Owls') }), { appKey: club.key });
  let store = await world.project(projections);
  t.equal((await readClubMatch(store, club.clubId, 'm'))?.side, null, 'then the side is unknown');
  t.same(await totalsOf(store, club.clubId), [], 'and no player counts, on either side');
  t.equal((await readSyncLog(store, club.clubId, { limit: 5 })).rows[0]?.side, null, 'Sync status says so too');

  // When the admin settles it: away
  await world.clubs.settleMatchSide(club.clubId, 'm', 'away', world.context);
  store = await world.project(projections);
  const settled = await totalsOf(store, club.clubId);
  t.equal(settled.length, 12, 'then the away players count');
  t.ok(settled.every((p) => p.playerId?.startsWith('a-')));
  t.same(await world.documents(store, projections), await world.documents(await world.project(projections, 1), projections), 'a rebuild (and redelivery) gives the same documents');

  // When the app uploads the match again, still not naming the club's team
  await world.upload(payload(club.clubId, club.teamId, { id: 'm', seed: 7, edit: named('Riverside', 'Hillcrest Owls') }), { appKey: club.key });
  store = await world.project(projections);
  t.equal((await readClubMatch(store, club.clubId, 'm'))?.side, 'away', 'the choice is kept');
  t.equal((await totalsOf(store, club.clubId)).length, 12);
  t.ok((await totalsOf(store, club.clubId)).every((p) => p.matchesPlayed === 1), 'counted once, not twice');

  // Names: suffixes and accents do not hide the team; an alias names it
  await world.upload(payload(club.clubId, club.teamId, { id: 'n', edit: named('Lakeside Herons U18 Girls', 'Owls') }), { appKey: club.key });
  await world.clubs.setTeamAliases(club.clubId, club.teamId, ['LH Volley'], world.context);
  await world.upload(payload(club.clubId, club.teamId, { id: 'o', edit: named('Owls', 'L.H. volley') }), { appKey: club.key });
  store = await world.project(projections);
  t.equal((await readClubMatch(store, club.clubId, 'n'))?.side, 'home', 'the name with an age-group suffix');
  t.equal((await readClubMatch(store, club.clubId, 'o'))?.side, 'away', 'an alias, punctuation ignored');
});

t.test('excluding a match takes it out of the totals; including it puts it back; both survive re-uploads and rebuilds', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  await world.upload(payload(club.clubId, club.teamId, { id: 'flagged', edit: home }), { appKey: null });
  await world.upload(payload(club.clubId, club.teamId, { id: 'ok', seed: 2, edit: home }), { appKey: club.key });
  let store = await world.project(projections);
  const before = await totalsOf(store, club.clubId);
  t.ok(before.some((p) => p.matchesPlayed === 2), 'both matches count');

  await world.clubs.setMatchCounted(club.clubId, 'flagged', false, world.context);
  await world.upload(payload(club.clubId, club.teamId, { id: 'flagged', edit: home }), { appKey: null });
  store = await world.project(projections);
  t.equal((await readClubMatch(store, club.clubId, 'flagged'))?.excluded, true, 'a re-upload keeps the exclusion');
  t.ok((await totalsOf(store, club.clubId)).every((p) => p.matchesPlayed === 1), 'only the other match counts');
  t.same(await world.documents(store, projections), await world.documents(await world.project(projections, 1), projections), 'rebuilt the same');

  await world.clubs.setMatchCounted(club.clubId, 'flagged', true, world.context);
  store = await world.project(projections);
  t.same(await totalsOf(store, club.clubId), before, 're-included: the same totals as before');
});

for (const mode of ['log', 'enforce'] as const) {
  t.test(`a club that requires an app key (global ${mode}): a sync without one copies nothing`, async (t) => {
    const world = createSyncWorld(t);
    const club = await world.club('Lakeside VC');
    await world.clubs.setAppKeyRequirement(club.clubId, true, world.context);
    const res = await world.upload(payload(club.clubId, club.teamId, { id: 'nokey', edit: home }), { appKey: null, mode });
    t.equal(res.syncSkipped, true, 'skipped_auth');
    await world.upload(payload(club.clubId, club.teamId, { id: 'withkey', edit: home }), { appKey: club.key, mode });
    const store = await world.project(projections);
    t.equal(await readClubMatch(store, club.clubId, 'nokey'), null, 'no copy');
    t.ok(await readClubMatch(store, club.clubId, 'withkey'), 'a valid key still syncs');
    t.ok((await totalsOf(store, club.clubId)).every((p) => p.matchesPlayed === 1));
  });
}

t.test("one huge upload cannot make the club's pages grow with it: stats and players copied are bounded", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const stats = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`stat${i}`, i]));
  const playerStats = Array.from({ length: 500 }, (_, i) => ({ playerId: `p${i}`, name: `Player ${i}`, stats }));
  await world.upload(JSON.stringify({ id: 'huge', clubId: club.clubId, teamId: club.teamId, side: 'home', playerStats }), { appKey: null });
  const store = await world.project(projections, 1);
  const players = await totalsOf(store, club.clubId);
  t.equal(players.length, MAX_COPIED_PLAYERS, 'players copied are capped');
  t.equal(Object.keys(players[0]?.totals ?? {}).length, MAX_TRACKED_STATS, 'stat names copied are capped');
});
