import t from 'tap';
import { readAppKeyUsage, readSyncLog, syncStatusProjection } from '../../projections/syncStatus.js';
import { projectionSpec } from '../helpers/projectionSpec.js';
import { everySyncOutcome } from '../helpers/syncOutcomes.js';
import { clubPayload, createSyncWorld } from '../helpers/syncWorld.js';

/** Connect → Sync status, specified by the events the real commands write (see everySyncOutcome). */
const given = projectionSpec(syncStatusProjection);
const outcomes = everySyncOutcome(t);
const home = (b: Record<string, unknown>) => Object.assign(b, { side: 'home' });

t.test("an upload is answered crmSync skipped_auth exactly when enforce mode skipped it, or it names no club or not the club's team", async (t) => {
  const { cases, syncSkipped } = await outcomes;
  for (const c of cases) t.equal(syncSkipped.get(c.id), c.crm, `${c.id}: crmSync ${c.crm ? 'skipped_auth' : 'absent'}`);
  for (const mode of ['log', 'enforce']) {
    t.equal(syncSkipped.get(`${mode}-no-club`), true, `${mode}: a club id naming no club is skipped`);
    t.equal(syncSkipped.get(`${mode}-no-team`), true, `${mode}: a team id that is not the club's is skipped`);
  }
});

t.test('each sync outcome is a row saying what came of it and why, with the players copied (none when skipped)', async (t) => {
  const { lakeside, u18, cases, given: clubs, when } = await outcomes;
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      const { rows } = await readSyncLog(read, lakeside.clubId, { limit: 100 });
      for (const c of cases) {
        const row = rows.find((r) => r.matchId === c.id);
        t.match(row, { outcome: c.outcome, reason: c.reason, teamId: u18 }, `${c.id}: Sync status row`);
        t.equal(row?.playersCopied ?? -1, c.copied ? 24 : 0, `${c.id}: players copied`);
      }
    });
});

t.test('a row names the key used: the one that synced, and a revoked key by its id', async (t) => {
  const { lakeside, revoked, given: clubs, when } = await outcomes;
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      const { rows } = await readSyncLog(read, lakeside.clubId, { limit: 100 });
      t.match(
        rows.find((r) => r.matchId === 'log-revoked'),
        { keyId: revoked.keyId },
        'a revoked key is named by its id',
      );
      t.match(
        rows.find((r) => r.matchId === 'log-valid'),
        { keyId: lakeside.keyId, outcome: 'synced' },
        'synced with key X',
      );
    });
});

t.test("an upload naming a team that is not the club's is a skipped row with nothing copied; one naming no club has no row", async (t) => {
  const { lakeside, given: clubs, when } = await outcomes;
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      const { rows } = await readSyncLog(read, lakeside.clubId, { limit: 100 });
      for (const mode of ['log', 'enforce']) {
        t.match(
          rows.find((r) => r.matchId === `${mode}-no-team`),
          { outcome: 'skipped', reason: 'no_such_team', playersCopied: 0 },
        );
        t.equal(
          rows.find((r) => r.matchId === `${mode}-no-club`),
          undefined,
          'no row for a club that does not exist',
        );
      }
    });
});

t.test('Sync status lists newest first, filters by outcome, and shows a club only its own uploads', async (t) => {
  const { lakeside, other, given: clubs, when } = await outcomes;
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      const { rows } = await readSyncLog(read, lakeside.clubId, { limit: 100 });
      t.same(
        rows.map((r) => r.position),
        [...rows.map((r) => r.position)].sort((a, b) => b - a),
        'newest first',
      );
      t.equal((await readSyncLog(read, other.clubId, { limit: 10 })).total, 0, "another club's key does not show in that club's status");
      const skipped = (await readSyncLog(read, lakeside.clubId, { outcome: 'skipped', limit: 100 })).rows.map((r) => r.matchId).sort();
      t.same(
        skipped,
        ['enforce-missing', 'enforce-other-club', 'enforce-revoked', 'enforce-typo', 'enforce-no-team', 'log-no-team'].sort(),
        'filter by outcome',
      );
    });
});

t.test('an app key counts one use per synced upload; a revoked key shows no use', async (t) => {
  const { lakeside, revoked, given: clubs, when } = await outcomes;
  await given(clubs)
    .when(when)
    .thenRead(t, async (read) => {
      const usage = await readAppKeyUsage(read, lakeside.clubId);
      t.match(usage.get(lakeside.keyId), { uses: 2, lastMatchId: 'enforce-valid' }, 'last use of the key that synced (log-valid, enforce-valid)');
      t.equal(usage.get(revoked.keyId), undefined, 'a revoked key was not used');
    });
});

t.test('ten uploads of a match are ten rows and ten uses of its key; the same upload sent ten times is one', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  const clubs = await world.log();
  for (let i = 0; i < 10; i += 1) {
    const rally = (b: Record<string, unknown>) => Object.assign(home(b), { rally: i });
    await world.upload(clubPayload(club.clubId, club.teamId, { id: 'live', edit: rally }), { appKey: club.key });
  }
  const text = clubPayload(club.clubId, club.teamId, { id: 'retried', edit: home });
  for (let i = 0; i < 10; i += 1) await world.upload(text, { appKey: club.key });
  await given(clubs)
    .when(await world.log(clubs))
    .thenRead(t, async (read) => {
      const rows = await readSyncLog(read, club.clubId, { limit: 100 });
      t.equal(rows.total, 11, 'Sync status lists every upload, a retry once');
      t.match((await readAppKeyUsage(read, club.clubId)).get(club.keyId), { uses: 11 });
    });
});

t.test("a row says the side is unknown when the upload names neither of its teams like the club's", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC', ['Lakeside Herons']);
  const clubs = await world.log();
  const named = (b: Record<string, unknown>) =>
    Object.assign(b, { homeTeam: { name: 'Riverside', setsWon: 3 }, awayTeam: { name: 'Hillcrest Owls', setsWon: 1 } });
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'm', edit: named }), { appKey: club.key });
  await given(clubs)
    .when(await world.log(clubs))
    .thenRead(t, async (read) => {
      t.match((await readSyncLog(read, club.clubId, { limit: 5 })).rows, [{ matchId: 'm', side: null, outcome: 'synced' }]);
    });
});
