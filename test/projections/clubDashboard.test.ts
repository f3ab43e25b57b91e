import t, { type Test } from 'tap';
import { statRates } from '../../src/domain/statRates.js';
import type { RecordedEvent } from '../../src/eventstore/eventStore.js';
import type { ReadModelReader } from '../../src/readmodel/readModel.js';
import { clubDashboardProjection, playerLinesOf, readClubMatch, readClubMatchFromLog, readClubMatches } from '../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals, type SeasonFilter } from '../../projections/clubSeasonTotals.js';
import { MAX_COPIED_PLAYERS, MAX_TRACKED_STATS } from '../../projections/clubSyncSource.js';
import { syncStatusProjection } from '../../projections/syncStatus.js';
import { fixture } from '../helpers/fixtures.js';
import { projectionSpec } from '../helpers/projectionSpec.js';
import { everySyncOutcome } from '../helpers/syncOutcomes.js';
import { clubPayload, createSyncWorld } from '../helpers/syncWorld.js';

/**
 * The club dashboard (match copies, play-by-play, season totals), specified by the events the
 * real commands write: given the log so far, when more is written, then what the pages read.
 */
const given = projectionSpec(clubDashboardProjection);

/** The club's players over the matches that count, as the Players and Stats pages read them. */
const totalsOf = async (read: ReadModelReader, clubId: string, filter: SeasonFilter = {}) => playerTotalsOf(await readSeasonTotals(read, clubId, filter));
/** The payload says the club's team is the home side. */
const home = (b: Record<string, unknown>) => Object.assign(b, { side: 'home' });
/** The payload names its sides, with a score. */
const named = (homeName: string, awayName: string) => (b: Record<string, unknown>) =>
  Object.assign(b, { homeTeam: { name: homeName, setsWon: 3 }, awayTeam: { name: awayName, setsWon: 1 } });

/** The events written by `write`, after those the world held before it. */
async function written(world: ReturnType<typeof createSyncWorld>, before: RecordedEvent[], write: () => Promise<unknown>) {
  await write();
  return world.log(before);
}

t.test('uploads processed for the club (synced, or unauthenticated in log mode) are copied to its dashboard; skipped ones are not', async (t) => {
  const { lakeside, cases, given: clubs, when } = await everySyncOutcome(t);
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      for (const c of cases)
        t.equal((await readClubMatch(read, lakeside.clubId, c.id)) !== null, c.copied, `${c.id}: ${c.copied ? 'in' : 'not in'} the dashboard`);
    });
});

t.test("an upload sent ten times is one copy, its home side's players each counted once", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const clubs = await world.log();
  const text = clubPayload(club.clubId, club.teamId, { id: 'retried', edit: home });
  const uploads = await written(world, clubs, async () => {
    for (let i = 0; i < 10; i += 1) await world.upload(text, { appKey: club.key });
  });
  const body = JSON.parse(text) as { playerStats: { team: string; stats: Record<string, number> }[] };
  const kills = body.playerStats.filter((p) => p.team === 'home').reduce((sum, p) => sum + (p.stats.kills ?? 0), 0);
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      t.equal((await readClubMatches(read, club.clubId)).length, 1, 'one copy');
      const players = await totalsOf(read, club.clubId);
      t.equal(players.length, 12, "the home side's players");
      t.equal(
        players.reduce((sum, p) => sum + (p.totals.kills ?? 0), 0),
        kills,
        'kills counted once',
      );
      t.ok(
        players.every((p) => p.matchesPlayed === 1),
        'each player played one match',
      );
    });
});

t.test('a replacement replaces the copy: a player left out leaves the totals, changed stats are the new ones', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'm', edit: home }), { appKey: club.key });
  const before = await world.log();
  // The app corrects the match: one player removed, one stat changed.
  const corrected = clubPayload(club.clubId, club.teamId, {
    id: 'm',
    edit: (b) => {
      home(b);
      const list = b.playerStats as { playerId: string; stats: Record<string, number> }[];
      b.playerStats = list.filter((p) => p.playerId !== 'h-01').map((p) => (p.playerId === 'h-02' ? { ...p, stats: { ...p.stats, kills: 99 } } : p));
    },
  });
  const replaced = await written(world, before, () => world.upload(corrected, { appKey: club.key, via: 'PUT' }));
  await given(before)
    .when(replaced)
    .thenRead(t, async (read) => {
      const after = await totalsOf(read, club.clubId);
      t.equal(
        after.find((p) => p.playerId === 'h-01'),
        undefined,
        'a player removed from the payload leaves the totals',
      );
      t.equal(after.find((p) => p.playerId === 'h-02')?.totals.kills, 99, 'stats are the new ones');
      t.equal(after.length, 11);
      t.ok(
        after.every((p) => p.matchesPlayed === 1),
        'still one match',
      );
    });
});

t.test('a re-upload whose sync is skipped leaves the synced copy as it was', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['U16', 'U18']);
  const u16 = club.teams[0]?.teamId ?? '';
  const synced = clubPayload(club.clubId, u16, { id: 'm', edit: home });
  await world.upload(synced, { appKey: club.key });
  const before = await world.log();
  const skipped = await written(world, before, () =>
    world.upload(clubPayload(club.clubId, u16, { id: 'm', seed: 5, edit: home }), { appKey: null, mode: 'enforce' }),
  );
  await given(before)
    .when(skipped)
    .thenRead(t, async (read) => {
      const kept = await readClubMatch(read, club.clubId, 'm');
      t.match(kept, { teamId: u16, outcome: 'synced' }, 'the skipped sync did not touch the dashboard');
      t.equal(kept?.players[0]?.name, (JSON.parse(synced) as { playerStats: { name: string }[] }).playerStats[0]?.name, 'still the synced payload');
    });
});

t.test("a sync of the match to another of the club's teams moves the copy there", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['U16', 'U18']);
  const [u16 = '', u18 = ''] = club.teams.map((team) => team.teamId);
  await world.upload(clubPayload(club.clubId, u16, { id: 'm' }), { appKey: club.key });
  const before = await world.log();
  const moved = await written(world, before, () => world.upload(clubPayload(club.clubId, u18, { id: 'm' }), { appKey: club.key }));
  await given(before)
    .when(moved)
    .thenRead(t, async (read) => {
      t.equal((await readClubMatches(read, club.clubId, { teamId: u16 })).length, 0);
      t.equal((await readClubMatches(read, club.clubId, { teamId: u18 })).length, 1, 'moved to the other team');
    });
});

t.test("the club's side is the one named like its team, or the one the payload tells; only that side's players count", async (t) => {
  const world = createSyncWorld(t);
  const first = fixture({ seed: 3, club: 'C', team: 'T' }) as { homeTeam: { name: string } };
  const club = await world.club('Lakeside VC', [first.homeTeam.name]);
  const clubs = await world.log();
  const uploads = await written(world, clubs, async () => {
    await world.upload(clubPayload(club.clubId, club.teamId, { seed: 3, id: 'a' }), { appKey: club.key });
    await world.upload(clubPayload(club.clubId, club.teamId, { seed: 4, id: 'b', edit: (b) => Object.assign(b, { side: 'away' }) }), { appKey: club.key });
  });
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      t.equal((await readClubMatch(read, club.clubId, 'a'))?.side, 'home', 'the team is named like the home team');
      t.equal((await readClubMatch(read, club.clubId, 'b'))?.side, 'away', 'explicit side');
      const counted = await totalsOf(read, club.clubId);
      t.equal(counted.length, 24, '12 home players of a and 12 away players of b (different player ids)');
      t.equal(counted.filter((p) => p.playerId?.startsWith('h-')).length, 12, 'of a, only the home side counts');
    });
});

t.test("a player is merged by playerId across matches, with a line per match on the player's page", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  await world.upload(clubPayload(club.clubId, club.teamId, { seed: 3, id: 'a', edit: home }), { appKey: club.key });
  const before = await world.log();
  const another = await written(world, before, async () => {
    const third = await world.upload(clubPayload(club.clubId, club.teamId, { seed: 5, id: 'c', edit: home }), { appKey: club.key });
    t.equal(third.syncSkipped, false);
  });
  await given(before)
    .when(another)
    .thenRead(t, async (read) => {
      const players = await totalsOf(read, club.clubId);
      const h01 = players.find((p) => p.playerId === 'h-01');
      t.equal(h01?.matchesPlayed, 2, 'merged by playerId across matches a and c');
      t.equal(playerLinesOf(await readClubMatches(read, club.clubId), h01?.key ?? '').length, 2, 'a line per match on the player page');
      t.ok(players.every((p) => p.teamId === club.teamId));
    });
});

/** A club with a volleyball and a basketball team, and one synced upload each (matches 'v' and 'b'). */
async function volleyAndBasketUploads(t: Test) {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside', ['Volley', 'Basket']);
  const [volley, basket] = club.teams.map((team) => team.teamId);
  const clubs = await world.log();
  const uploads = await written(world, clubs, async () => {
    await world.upload(clubPayload(club.clubId, volley ?? '', { id: 'v', edit: home }), { appKey: club.key });
    await world.upload(clubPayload(club.clubId, basket ?? '', { id: 'b', sport: 'basketball', edit: home }), { appKey: club.key });
  });
  return { world, club, volley, basket, clubs, uploads };
}

t.test('stats: every numeric stat is totalled for every player, with the rates their inputs allow, per sport', async (t) => {
  const { club, volley, basket, clubs, uploads } = await volleyAndBasketUploads(t);
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      const v = await totalsOf(read, club.clubId, { teamId: volley });
      const attacker = v.find((p) => (p.totals.attacks ?? 0) > 0);
      if (attacker === undefined) throw new Error('fixture has no attacker');
      const { kills = 0, attackErrors = 0, attacks = 1 } = attacker.totals;
      t.match(statRates(attacker.totals), [{ name: 'hitting %', value: (kills - attackErrors) / attacks }]);
      t.equal(attacker.sport, 'volleyball');
      t.ok(
        v.every((p) => 'kills' in p.totals && 'digs' in p.totals),
        'a stat any player has is tracked for all (absent means 0)',
      );
      const b = await totalsOf(read, club.clubId, { teamId: basket });
      const shooter = b.find((p) => (p.totals['2ptAttempted'] ?? 0) + (p.totals['3ptAttempted'] ?? 0) > 0);
      t.ok(
        statRates(shooter?.totals ?? {}).some((r) => r.name === 'FG %'),
        'basketball FG %',
      );
      t.equal(shooter?.sport, 'basketball');
    });
});

t.test('no rate without its inputs, and none over zero attempts', async (t) => {
  t.same(statRates({ kills: 3 }), []);
  t.same(statRates({ kills: 3, attackErrors: 1, attacks: 0 }), []);
});

t.test('season totals and the match list filter by season; the play-by-play is counted in the copy and read from the payload in the log', async (t) => {
  const { world, club, clubs, uploads } = await volleyAndBasketUploads(t);
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      t.equal((await totalsOf(read, club.clubId, { season: '1999/00' })).length, 0, 'season totals filter by season');
      t.equal((await readClubMatches(read, club.clubId, { season: '2025/26' })).length, 2, 'filter by season');
      t.equal((await readClubMatches(read, club.clubId, { season: '1999/00' })).length, 0);
      const copy = await readClubMatch(read, club.clubId, 'v');
      const fromLog = copy === null ? null : await readClubMatchFromLog(world.eventStore, copy);
      t.ok((fromLog?.actions.length ?? 0) > 300, 'play-by-play read from the payload in the log');
      t.equal(copy?.actionCount, fromLog?.actions.length, 'as many as the copy counted');
    });
});

t.test('payload shapes vary: playerStats keyed by player with flat stats is read; garbage degrades to what can be read', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  const clubs = await world.log();
  const keyed = {
    clubId: club.clubId,
    teamId: club.teamId,
    side: 'home',
    playerStats: { p1: { name: 'Ana', number: 4, kills: 3, attacks: 5, toString: 2 }, p2: { name: 'Eva', kills: 1 } },
    actions: 'not a list',
  };
  const uploads = await written(world, clubs, async () => {
    await world.upload(JSON.stringify({ ...keyed, id: 'keyed' }), { appKey: club.key });
    await world.upload(JSON.stringify({ id: 'junk', clubId: club.clubId, teamId: club.teamId, playerStats: 7, actions: [1, null, {}] }), { appKey: club.key });
  });
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      const players = await totalsOf(read, club.clubId);
      t.match(
        players.find((p) => p.playerId === 'p1'),
        { name: 'Ana', number: '4', totals: { kills: 3, attacks: 5 } },
      );
      t.match(
        players.find((p) => p.playerId === 'p2'),
        { totals: { kills: 1, attacks: 0, toString: 0 } },
        "a stat another player has is 0, even one named like an object's method",
      );
      t.match(await readClubMatch(read, club.clubId, 'junk'), { players: [], actionCount: 1 }, 'degrades to what it can read');
    });
});

t.test('names from payloads never become field names (document stores refuse "$x" and "a.b"), and the stats keep them', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  const clubs = await world.log();
  const hostile = {
    id: 'hostile',
    clubId: club.clubId,
    teamId: club.teamId,
    side: 'home',
    playerStats: { 'p.1': { name: 'Dot', stats: { $where: 1, 'a.b': 2, attack: { kills: 3 } } }, $p2: { name: 'Dollar', stats: { kills: 1 } } },
    actions: [{ playerId: 'p.1', skill: 'attack' }],
  };
  const upload = await written(world, clubs, () => world.upload(JSON.stringify(hostile), { appKey: club.key }));
  await projectionSpec(
    clubDashboardProjection,
    syncStatusProjection,
  )(clubs)
    .when(upload)
    .thenRead(t, async (read) => {
      const fieldNames = (value: unknown): string[] =>
        Array.isArray(value)
          ? value.flatMap(fieldNames)
          : typeof value === 'object' && value !== null
            ? Object.entries(value).flatMap(([k, v]) => [k, ...fieldNames(v)])
            : [];
      const collections = [...clubDashboardProjection.collections, ...syncStatusProjection.collections];
      const names = (await Promise.all(collections.map((collection) => read.find(collection)))).flatMap(fieldNames);
      t.same(
        names.filter((name) => name.startsWith('$') || name.includes('.')),
        [],
      );
      const players = await totalsOf(read, club.clubId);
      t.match(
        players.find((p) => p.playerId === 'p.1'),
        { totals: { $where: 1, 'a.b': 2, 'attack.kills': 3 } },
        'the stats themselves are intact',
      );
    });
});

t.test('the club projections keep copies and totals only: no collection of payloads waiting for their sync outcome', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside');
  const clubs = await world.log();
  const uploads = await written(world, clubs, async () => {
    for (let i = 0; i < 3; i += 1)
      await world.upload(clubPayload(club.clubId, club.teamId, { seed: i + 1, id: `m${i % 2}`, edit: home }), { appKey: i === 1 ? null : club.key });
  });
  const collections = [...clubDashboardProjection.collections, ...syncStatusProjection.collections].sort();
  t.same(collections, ['appKeyUsage', 'clubMatches', 'clubSeasonTotals', 'clubSyncLog']);
  // The spec rebuilds from the log and compares: the same documents without any pending state.
  await projectionSpec(
    clubDashboardProjection,
    syncStatusProjection,
  )(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      t.equal((await readClubMatches(read, club.clubId)).length, 2);
    });
});

t.test("the club's side when the upload names neither team like it", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['Lakeside Herons']);
  const clubs = await world.log();
  const ambiguous = await written(world, clubs, () =>
    world.upload(clubPayload(club.clubId, club.teamId, { id: 'm', edit: named('Riverside', 'Hillcrest Owls') }), { appKey: club.key }),
  );
  const uploaded = [...clubs, ...ambiguous];
  const settled = await written(world, uploaded, () => world.clubs.settleMatchSide(club.clubId, 'm', 'away', world.context));
  const decided = [...uploaded, ...settled];
  const again = await written(world, decided, () =>
    world.upload(clubPayload(club.clubId, club.teamId, { id: 'm', seed: 7, edit: named('Riverside', 'Hillcrest Owls') }), { appKey: club.key }),
  );

  t.test('is unknown, and no player counts, on either side; the copy keeps no players, the page reads both sides from the log', async (t) => {
    await given(clubs)
      .when(ambiguous)
      .thenRead(t, async (read) => {
        const copy = await readClubMatch(read, club.clubId, 'm');
        t.equal(copy?.side, null);
        t.same(copy?.players, [], "no players copied while no side is the club's");
        t.same(await totalsOf(read, club.clubId), []);
        const fromLog = copy === null ? null : await readClubMatchFromLog(world.eventStore, copy);
        t.equal(fromLog?.players.filter((p) => p.team === 'home').length, 12, 'home players, from the payload in the log');
        t.equal(fromLog?.players.filter((p) => p.team === 'away').length, 12, 'away players, from the payload in the log');
        t.ok(
          fromLog?.players.every((p) => p.stats.length > 0),
          'with their stats',
        );
      });
  });

  t.test("once the admin settles it, that side's players count (taken from the payload in the log)", async (t) => {
    await given(uploaded)
      .when(settled)
      .thenRead(t, async (read) => {
        const players = await totalsOf(read, club.clubId);
        t.equal(players.length, 12, 'the away players count');
        t.ok(players.every((p) => p.playerId?.startsWith('a-')));
        const copy = await readClubMatch(read, club.clubId, 'm');
        t.equal(copy?.players.length, 12, "the copy keeps the settled side's players");
        t.ok(copy?.players.every((p) => p.team === 'away'));
      });
  });

  t.test('settled again the other way, the other side counts instead', async (t) => {
    const corrected = await written(world, decided, () => world.clubs.settleMatchSide(club.clubId, 'm', 'home', world.context));
    await given(decided)
      .when(corrected)
      .thenRead(t, async (read) => {
        const players = await totalsOf(read, club.clubId);
        t.equal(players.length, 12, 'the home players count');
        t.ok(
          players.every((p) => p.playerId?.startsWith('h-')),
          'and no away player any more',
        );
      });
  });

  t.test('is kept when the app uploads the match again, still not naming the team; counted once', async (t) => {
    await given(decided)
      .when(again)
      .thenRead(t, async (read) => {
        t.equal((await readClubMatch(read, club.clubId, 'm'))?.side, 'away', 'the choice is kept');
        const players = await totalsOf(read, club.clubId);
        t.equal(players.length, 12);
        t.ok(
          players.every((p) => p.matchesPlayed === 1),
          'counted once, not twice',
        );
      });
  });
});

t.test("team names: an age-group suffix does not hide the club's team; an alias names it, punctuation ignored", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['Lakeside Herons']);
  const clubs = await world.log();
  const uploads = await written(world, clubs, async () => {
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'n', edit: named('Lakeside Herons U18 Girls', 'Owls') }), { appKey: club.key });
    await world.clubs.setTeamAliases(club.clubId, club.teamId, ['LH Volley'], world.context);
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'o', edit: named('Owls', 'L.H. volley') }), { appKey: club.key });
  });
  await given(clubs)
    .when(uploads)
    .thenRead(t, async (read) => {
      t.equal((await readClubMatch(read, club.clubId, 'n'))?.side, 'home', 'the name with an age-group suffix');
      t.equal((await readClubMatch(read, club.clubId, 'o'))?.side, 'away', 'an alias, punctuation ignored');
    });
});

t.test('excluding a match from the totals', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const clubs = await world.log();
  const uploads = await written(world, clubs, async () => {
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'flagged', edit: home }), { appKey: null });
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'ok', seed: 2, edit: home }), { appKey: club.key });
  });
  const uploaded = [...clubs, ...uploads];
  const excluded = await written(world, uploaded, async () => {
    await world.clubs.setMatchCounted(club.clubId, 'flagged', false, world.context);
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'flagged', edit: home }), { appKey: null });
  });
  const decided = [...uploaded, ...excluded];
  const included = await written(world, decided, () => world.clubs.setMatchCounted(club.clubId, 'flagged', true, world.context));

  let before: Awaited<ReturnType<typeof totalsOf>> = [];
  t.test('uploads of the club, authenticated or not, count', async (t) => {
    await given(clubs)
      .when(uploads)
      .thenRead(t, async (read) => {
        before = await totalsOf(read, club.clubId);
        t.ok(
          before.some((p) => p.matchesPlayed === 2),
          'both matches count',
        );
      });
  });

  t.test('takes it out of the totals, and a re-upload keeps it excluded', async (t) => {
    await given(uploaded)
      .when(excluded)
      .thenRead(t, async (read) => {
        t.equal((await readClubMatch(read, club.clubId, 'flagged'))?.excluded, true, 'a re-upload keeps the exclusion');
        t.ok(
          (await totalsOf(read, club.clubId)).every((p) => p.matchesPlayed === 1),
          'only the other match counts',
        );
      });
  });

  t.test('including it again gives the totals as before', async (t) => {
    await given(decided)
      .when(included)
      .thenRead(t, async (read) => {
        t.same(await totalsOf(read, club.clubId), before, 're-included: the same totals as before');
      });
  });
});

for (const mode of ['log', 'enforce'] as const) {
  t.test(`a club that requires an app key (global ${mode}): a sync without one copies nothing, one with a valid key still does`, async (t) => {
    const world = createSyncWorld(t);
    const club = await world.club('Lakeside VC');
    await world.clubs.setAppKeyRequirement(club.clubId, true, world.context);
    const clubs = await world.log();
    const uploads = await written(world, clubs, async () => {
      const res = await world.upload(clubPayload(club.clubId, club.teamId, { id: 'nokey', edit: home }), { appKey: null, mode });
      t.equal(res.syncSkipped, true, 'skipped_auth');
      await world.upload(clubPayload(club.clubId, club.teamId, { id: 'withkey', edit: home }), { appKey: club.key, mode });
    });
    await given(clubs)
      .when(uploads)
      .thenRead(t, async (read) => {
        t.equal(await readClubMatch(read, club.clubId, 'nokey'), null, 'no copy');
        t.ok(await readClubMatch(read, club.clubId, 'withkey'), 'a valid key still syncs');
        t.ok((await totalsOf(read, club.clubId)).every((p) => p.matchesPlayed === 1));
      });
  });
}

t.test("one huge upload cannot make the club's pages grow with it: stats and players copied are bounded", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const clubs = await world.log();
  const stats = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`stat${i}`, i]));
  const playerStats = Array.from({ length: 500 }, (_, i) => ({ playerId: `p${i}`, name: `Player ${i}`, stats }));
  const huge = await written(world, clubs, () =>
    world.upload(JSON.stringify({ id: 'huge', clubId: club.clubId, teamId: club.teamId, side: 'home', playerStats }), { appKey: null }),
  );
  await given(clubs)
    .when(huge)
    .thenRead(t, async (read) => {
      const players = await totalsOf(read, club.clubId);
      t.equal(players.length, MAX_COPIED_PLAYERS, 'players copied are capped');
      t.equal(Object.keys(players[0]?.totals ?? {}).length, MAX_TRACKED_STATS, 'stat names copied are capped');
    });
});
