import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, seedFields, logLines, startTestApp, tempDataDir } from '../helpers/testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };

async function setUp(t: Test, mode: 'log' | 'enforce', env: Record<string, string> = {}) {
  const test = await startTestApp(t, { CLUB_SYNC_ENFORCEMENT: mode, ...env });
  const clubs = createClubCommands({ eventStore: test.engine.eventStore });
  const { clubId, teams } = await clubs.signUp(
    { clubName: 'Lakeside VC', email: `${mode}@lakeside.test`, password: 'correct horse battery', teams: ['U16 Women'] },
    context,
  );
  const teamId = teams[0]?.teamId ?? '';
  const { key, keyId } = await clubs.issueAppKey(clubId, '', context);
  const body = (id: string, club = clubId, team = teamId) =>
    fixtureText({ club: 'CLUB', team: 'TEAM', id })
      .replace('"clubId":"CLUB"', `"clubId":${JSON.stringify(club)}`)
      .replace('"teamId":"TEAM"', `"teamId":${JSON.stringify(team)}`);
  return { ...test, clubs, clubId, teamId, key, keyId, body };
}

for (const mode of ['log', 'enforce'] as const) {
  t.test(`CLUB_SYNC_ENFORCEMENT=${mode}`, async (t) => {
    const s = await setUp(t, mode);
    const post = (payload: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, ...headers }, payload });
    const put = (id: string, payload: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: 'PUT', url: `/api/matches/${id}`, headers: { ...json, ...headers }, payload });
    const skippedIfEnforced = mode === 'enforce' ? { crmSync: 'skipped_auth' } : {};

    let res = await post(s.body('valid'), { 'x-app-key': s.key });
    t.equal(res.statusCode, 201);
    t.same(seedFields(res.json()), { id: 'valid', url: 'http://matchlog.test/match/valid' }, 'valid key: no crmSync');

    res = await post(s.body('nokey'));
    t.equal(res.statusCode, 201, 'a missing key is never an error');
    t.same(
      seedFields(res.json()),
      { id: 'nokey', url: 'http://matchlog.test/match/nokey', ...skippedIfEnforced },
      `missing key: ${mode === 'enforce' ? 'skipped_auth' : 'processed, no crmSync'}`,
    );

    res = await put('nokey', s.body('nokey'), { 'x-app-key': 'mlk_this-is-not-a-key' });
    t.equal(res.statusCode, 200);
    t.same(seedFields(res.json()), { id: 'nokey', url: 'http://matchlog.test/match/nokey', ...skippedIfEnforced }, 'PUT with a bad key');

    res = await put('put-valid', s.body('put-valid'), { 'x-app-key': s.key });
    t.same(seedFields(res.json()), { id: 'put-valid', url: 'http://matchlog.test/match/put-valid' }, 'PUT-create with a valid key');

    res = await post(s.body('noclub', 'zzzzzzzzzzzzzzzz'), { 'x-app-key': s.key });
    t.same(
      seedFields(res.json()),
      { id: 'noclub', url: 'http://matchlog.test/match/noclub', crmSync: 'skipped_auth' },
      'a clubId that names no club: skipped_auth in both modes',
    );

    res = await post(s.body('noteam', s.clubId, 'nosuchteam'), { 'x-app-key': s.key });
    t.same(
      seedFields(res.json()),
      { id: 'noteam', url: 'http://matchlog.test/match/noteam', crmSync: 'skipped_auth' },
      'a teamId that is not a team of the club: skipped',
    );

    res = await post(fixtureText({ id: 'plain' }), { 'x-app-key': s.key });
    t.same(seedFields(res.json()), { id: 'plain', url: 'http://matchlog.test/match/plain' }, 'no club fields: no sync, no crmSync');
    res = await post(JSON.stringify({ id: 'half', clubId: s.clubId }));
    t.same(seedFields(res.json()), { id: 'half', url: 'http://matchlog.test/match/half' }, 'clubId without teamId: no sync attempted');

    await s.clubs.revokeAppKey(s.clubId, s.keyId, context);
    res = await post(s.body('revoked'), { 'x-app-key': s.key });
    t.same(seedFields(res.json()), { id: 'revoked', url: 'http://matchlog.test/match/revoked', ...skippedIfEnforced }, 'a revoked key stops working at once');

    for (const id of ['valid', 'nokey', 'noclub', 'noteam', 'revoked']) {
      t.equal((await s.app.inject({ method: 'GET', url: `/api/matches/${id}` })).statusCode, 200, `${id}: saved whatever the sync outcome`);
      t.equal((await s.app.inject({ method: 'GET', url: `/match/${id}` })).statusCode, 200, `${id}: public page works`);
    }

    res = await put('nokey', s.body('nokey'), { 'x-app-key': 'mlk_this-is-not-a-key' });
    t.same(
      seedFields(res.json()),
      { id: 'nokey', url: 'http://matchlog.test/match/nokey', ...skippedIfEnforced },
      'the same PUT again: answered the same, nothing stored',
    );
    const history = (await s.app.inject({ method: 'GET', url: '/api/matches/nokey/history?order=oldest' })).json() as {
      entries: { type: string; details: unknown }[];
    };
    t.same(
      history.entries.filter((e) => e.type.startsWith('ClubSync')).map((e) => e.details),
      [1, 2].map(() => ({ clubId: s.clubId, teamId: s.teamId, copied: mode === 'log' })),
      'the public history shows the club, the team and whether it was copied; never reasons or keys',
    );
    const events = await s.engine.eventStore.readStream('match-nokey');
    t.same(
      events.map((e) => e.type),
      [
        'MatchCreated',
        mode === 'enforce' ? 'ClubSyncSkipped' : 'ClubSyncUnauthenticated',
        'MatchReplaced',
        mode === 'enforce' ? 'ClubSyncSkipped' : 'ClubSyncUnauthenticated',
      ],
    );
    t.same(new Set(events.slice(0, 2).map((e) => e.metadata.requestId)).size, 1, 'match and sync outcome come from one append');
    const all = (await s.engine.eventStore.readAll({ after: null, maxCount: 10_000 })).map((e) => e.data).join('\n');
    t.notOk(all.includes(s.key), 'the app key never enters the log');
    t.notOk(s.logs.join('').includes(s.key), 'nor a log line');
    const synced = logLines<{ msg: string; clubSync?: { outcome: string } }>(s.logs).filter((line) => line.clubSync !== undefined);
    t.ok(synced.length >= 2, 'sync outcomes are logged (without the key)');
    t.ok(
      synced.every((line) => line.msg === 'request completed'),
      'on the access line of the upload',
    );
    t.ok(
      synced.some((line) => line.clubSync?.outcome === 'ClubSyncAccepted') && synced.some((line) => line.clubSync?.outcome === 'ClubSyncSkipped'),
      'whatever the outcome',
    );
  });
}

t.test('a key revoked by another process stops working at the next sync', async (t) => {
  const dataDir = tempDataDir(t);
  const s = await setUp(t, 'enforce', { DATA_DIR: dataDir });
  const post = (id: string) => s.app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-app-key': s.key }, payload: s.body(id) });
  t.same(seedFields((await post('before')).json()), { id: 'before', url: 'http://matchlog.test/match/before' }, 'the key works (and the club is now cached)');
  // Another process (say the CLI) with its own connection to the log.
  const other = openSqliteEventStore(join(dataDir, 'events.sqlite'));
  t.teardown(() => other.close());
  await createClubCommands({ eventStore: other }).revokeAppKey(s.clubId, s.keyId, context);
  t.same(seedFields((await post('after')).json()), { id: 'after', url: 'http://matchlog.test/match/after', crmSync: 'skipped_auth' }, 'refused at once');
});

t.test('a rejected write stores no sync outcome', async (t) => {
  const s = await setUp(t, 'log');
  const token = 'a-write-token-of-the-creator';
  let res = await s.app.inject({
    method: 'POST',
    url: '/api/matches',
    headers: { ...json, 'x-write-token': token, 'x-app-key': s.key },
    payload: s.body('protected'),
  });
  t.equal(res.statusCode, 201);
  res = await s.app.inject({ method: 'PUT', url: '/api/matches/protected', headers: { ...json, 'x-app-key': s.key }, payload: s.body('protected') });
  t.equal(res.statusCode, 403, 'a valid app key does not replace the write token');
  t.same(
    (await s.engine.eventStore.readStream('match-protected')).map((e) => e.type),
    ['MatchCreated', 'ClubSyncAccepted'],
  );
});

t.test('the OpenAPI document describes X-App-Key and crmSync', async (t) => {
  const s = await startTestApp(t);
  const doc = (await s.app.inject({ method: 'GET', url: '/docs/json' })).json() as Record<string, unknown>;
  const text = JSON.stringify(doc);
  // Written as HTTP spells it (issue 62: the generated types name headers X-App-Key).
  t.ok(text.includes('X-App-Key'));
  t.ok(text.includes('crmSync'));
});

for (const mode of ['log', 'enforce'] as const) {
  t.test(`a club that requires an app key for every sync (global mode ${mode})`, async (t) => {
    const s = await setUp(t, mode);
    const post = (id: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, ...headers }, payload: s.body(id) });
    const syncEvents = async (id: string) =>
      ((await s.app.inject({ method: 'GET', url: `/api/matches/${id}/history?order=oldest` })).json() as { entries: { type: string }[] }).entries
        .map((entry) => entry.type)
        .filter((type) => type.startsWith('ClubSync'));

    await s.clubs.setAppKeyRequirement(s.clubId, true, context);
    let res = await post('without-key');
    t.equal(res.statusCode, 201, 'the match is saved');
    t.same(
      seedFields(res.json()),
      { id: 'without-key', url: 'http://matchlog.test/match/without-key', crmSync: 'skipped_auth' },
      'no key: skipped whatever the global mode',
    );
    t.same(await syncEvents('without-key'), ['ClubSyncSkipped']);
    res = await post('wrong-key', { 'x-app-key': 'mlk_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    t.same(
      seedFields(res.json()),
      { id: 'wrong-key', url: 'http://matchlog.test/match/wrong-key', crmSync: 'skipped_auth' },
      "a key that is not the club's: skipped",
    );
    res = await post('with-key', { 'x-app-key': s.key });
    t.same(seedFields(res.json()), { id: 'with-key', url: 'http://matchlog.test/match/with-key' }, 'a valid key: synced');
    t.same(await syncEvents('with-key'), ['ClubSyncAccepted']);

    await s.clubs.setAppKeyRequirement(s.clubId, false, context);
    res = await post('after');
    t.same(
      seedFields(res.json()),
      { id: 'after', url: 'http://matchlog.test/match/after', ...(mode === 'enforce' ? { crmSync: 'skipped_auth' } : {}) },
      'requirement lifted: the global mode decides again',
    );
  });
}

t.test("the club's side: aliases the admin registered, and a side the admin settled, hold for later uploads", async (t) => {
  const s = await setUp(t, 'log');
  const payload = (id: string, home: string, away: string) => {
    const body = JSON.parse(s.body(id)) as { homeTeam: { name: string }; awayTeam: { name: string } };
    body.homeTeam.name = home;
    body.awayTeam.name = away;
    return JSON.stringify(body);
  };
  const post = (body: string) => s.app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-app-key': s.key }, payload: body });
  /** The side the newest sync outcome of the match recorded (the log is the truth). */
  const sideOf = async (id: string) => {
    const events = await s.engine.eventStore.readStream(`match-${id}`);
    const outcome = events.reverse().find((event) => event.type === 'ClubSyncAccepted');
    return outcome === undefined ? undefined : (JSON.parse(outcome.data) as { side: string | null }).side;
  };

  await post(payload('by-name', 'Hillcrest Owls', 'U16 Women (Girls)'));
  t.equal(await sideOf('by-name'), 'away', "the team's own name, punctuation and suffix ignored");
  await post(payload('by-alias', 'Lakeside Herons U16 Girls', 'Hillcrest Owls'));
  t.equal(await sideOf('by-alias'), null, 'an unknown name: side unknown');
  await s.clubs.setTeamAliases(s.clubId, s.teamId, ['Lakeside Herons'], context);
  await post(payload('by-alias', 'Lakeside Herons U16 Girls', 'Hillcrest Owls'));
  t.equal(await sideOf('by-alias'), 'home', 'after the alias is registered, the re-upload finds the side');

  await post(payload('settled', 'Riverside', 'Hillcrest Owls'));
  t.equal(await sideOf('settled'), null);
  await s.clubs.settleMatchSide(s.clubId, 'settled', 'away', context);
  await post(payload('settled', 'Riverside', 'Hillcrest Owls'));
  t.equal(await sideOf('settled'), 'away', 'a later upload keeps the side the admin settled');
});
