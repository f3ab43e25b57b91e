import t from 'tap';
import type { AppKeyVerdict } from '../../src/domain/club.js';
import {
  type ClubSyncCheck,
  clubPlayers,
  clubSide,
  clubSyncTarget,
  mayNameClub,
  normalTeamName,
  type SyncEnforcement,
  skippedSync,
} from '../../src/domain/clubSync.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { decideMatch, evolveMatch, initialMatchState, type UploadMatch } from '../../src/domain/match.js';
import type { MatchStreamEvent } from '../../src/domain/matchEvents.js';
import { saltedVersion } from '../../src/domain/payloadDigest.js';
import { deciderSpec } from '../helpers/givenWhenThen.js';

const payload = asJsonText('{"clubId":"c1","teamId":"t1"}');
const created: MatchStreamEvent = {
  type: 'MatchCreated',
  data: { matchId: 'm1', protection: 'unprotected', createdVia: 'POST', ...saltedVersion(payload, Buffer.alloc(16, 1)), payload },
};
const replaced: MatchStreamEvent = {
  type: 'MatchReplaced',
  data: { matchId: 'm1', replacedVia: 'PUT', ...saltedVersion(payload, Buffer.alloc(16, 1)), payload },
};
const valid: AppKeyVerdict = { valid: true, keyId: 'key0000001' };
const bad = (problem: Extract<AppKeyVerdict, { valid: false }>['problem'], keyId: string | null = null): AppKeyVerdict => ({ valid: false, problem, keyId });

const check = (enforcement: SyncEnforcement, key: AppKeyVerdict, found: ClubSyncCheck['found'] = 'club_and_team'): ClubSyncCheck => ({
  clubId: 'c1',
  teamId: 't1',
  enforcement,
  found,
  key,
  side: 'home',
});
const upload = (clubSync: ClubSyncCheck | null, via: 'POST' | 'PUT' = 'POST'): UploadMatch => ({
  type: 'UploadMatch',
  via,
  matchId: 'm1',
  payload,
  payloadSalt: Buffer.alloc(16, 1).toString('base64'),
  writeToken: null,
  clubSync,
});
const spec = deciderSpec({ initialState: initialMatchState, decide: decideMatch, evolve: evolveMatch });

const accepted: MatchStreamEvent = { type: 'ClubSyncAccepted', data: { matchId: 'm1', clubId: 'c1', teamId: 't1', keyId: 'key0000001', side: 'home' } };
const unauthenticated = (reason: string, keyId: string | null = null): MatchStreamEvent => ({
  type: 'ClubSyncUnauthenticated',
  data: { matchId: 'm1', clubId: 'c1', teamId: 't1', reason, keyId, side: 'home' },
});
const skipped = (reason: string, keyId: string | null = null): MatchStreamEvent => ({
  type: 'ClubSyncSkipped',
  data: { matchId: 'm1', clubId: 'c1', teamId: 't1', reason, keyId },
});

const keyCases: { name: string; key: AppKeyVerdict; reason: string; keyId: string | null }[] = [
  { name: 'no X-App-Key', key: bad('missing_key'), reason: 'missing_key', keyId: null },
  { name: 'a mistyped key (checksum)', key: bad('malformed_key'), reason: 'malformed_key', keyId: null },
  { name: 'a key of another club', key: bad('unknown_key'), reason: 'unknown_key', keyId: null },
  { name: 'a key id of the club with the wrong secret', key: bad('wrong_key', 'key0000001'), reason: 'wrong_key', keyId: 'key0000001' },
  { name: 'a revoked key', key: bad('revoked_key', 'key0000001'), reason: 'revoked_key', keyId: 'key0000001' },
];

t.test('a valid key of the club: accepted in both modes, after the match event', async (t) => {
  for (const mode of ['log', 'enforce'] as const) {
    spec([])
      .when(upload(check(mode, valid)))
      .then(t, [created, accepted], `${mode}: create`);
    spec([created])
      .when(upload(check(mode, valid), 'PUT'))
      .then(t, [replaced, accepted], `${mode}: replace`);
  }
});

t.test('log mode: without a valid key the sync is processed and flagged', async (t) => {
  for (const c of keyCases) {
    spec([])
      .when(upload(check('log', c.key)))
      .then(t, [created, unauthenticated(c.reason, c.keyId)], c.name);
  }
});

t.test('enforce mode: without a valid key the sync is skipped', async (t) => {
  for (const c of keyCases) {
    spec([])
      .when(upload(check('enforce', c.key)))
      .then(t, [created, skipped(c.reason, c.keyId)], c.name);
  }
});

t.test('a club id that names no club is skipped in both modes, whatever the key', async (t) => {
  for (const mode of ['log', 'enforce'] as const) {
    for (const key of [valid, bad('missing_key')]) {
      spec([])
        .when(upload(check(mode, key, 'no_such_club')))
        .then(t, [created, skipped('no_such_club')], `${mode}, ${key.valid ? 'valid' : 'no'} key`);
    }
  }
});

t.test('a team id that is not a team of the club is skipped', async (t) => {
  spec([])
    .when(upload(check('log', valid, 'no_such_team')))
    .then(t, [created, skipped('no_such_team', 'key0000001')], 'log, valid key');
  spec([])
    .when(upload(check('enforce', valid, 'no_such_team')))
    .then(t, [created, skipped('no_such_team', 'key0000001')], 'enforce, valid key');
  spec([])
    .when(upload(check('log', bad('missing_key'), 'no_such_team')))
    .then(t, [created, skipped('no_such_team')], 'log, no key');
  spec([])
    .when(upload(check('enforce', bad('missing_key'), 'no_such_team')))
    .then(t, [created, skipped('missing_key')], 'enforce, no key: the key problem is named');
});

t.test('no club fields: no sync event at all', async (t) => {
  spec([]).when(upload(null)).then(t, [created]);
});

t.test('a rejected write (403) stores no sync outcome either', async (t) => {
  const protectedMatch: MatchStreamEvent = {
    type: 'MatchCreated',
    data: { matchId: 'm1', protection: 'protected', writeTokenHash: 'h', createdVia: 'POST', payload },
  };
  spec([protectedMatch])
    .when(upload(check('log', valid), 'PUT'))
    .thenThrows(t, 'forbidden', /write-protected/);
});

t.test('sync outcomes do not change protection', async (t) => {
  const state = [created, accepted, skipped('missing_key')].reduce(evolveMatch, initialMatchState());
  t.match(state, { exists: true, protection: 'unprotected', writeTokenHash: null });
});

t.test('the same payload sent again stores nothing only when its sync would end the same way', async (t) => {
  spec([created, accepted])
    .when(upload(check('log', valid), 'PUT'))
    .then(t, [], 'same key: a retry');
  spec([created, skipped('missing_key')])
    .when(upload(check('enforce', bad('missing_key'))))
    .then(t, [], 'still no key: a retry');
  spec([created, skipped('missing_key')])
    .when(upload(check('enforce', valid), 'PUT'))
    .then(t, [replaced, accepted], 'now with the key: synced');
  spec([created, accepted])
    .when(upload(check('log', bad('revoked_key', 'key0000001')), 'PUT'))
    .then(t, [replaced, unauthenticated('revoked_key', 'key0000001')], 'the key was revoked since');
  spec([created, accepted])
    .when(upload(null, 'PUT'))
    .then(t, [replaced], 'the sync outcome is kept with the text, so this cannot happen; were it to, it is a change');
});

t.test('crmSync skipped_auth exactly when skipped', async (t) => {
  t.equal(skippedSync(accepted), false);
  t.equal(skippedSync(unauthenticated('missing_key')), false, 'log mode: no crmSync');
  t.equal(skippedSync(skipped('missing_key')), true);
  t.equal(skippedSync(null), false);
});

t.test('sync is attempted when the payload has both clubId and teamId', async (t) => {
  t.same(clubSyncTarget({ clubId: 'c1', teamId: 't1' }), { clubId: 'c1', teamId: 't1' });
  t.same(clubSyncTarget({ clubId: 42, teamId: 7 }), { clubId: '42', teamId: '7' }, 'numbers are identifiers too');
  t.equal(clubSyncTarget({ clubId: 'c1' }), null);
  t.equal(clubSyncTarget({ teamId: 't1' }), null);
  t.equal(clubSyncTarget({ clubId: 'c1', teamId: null }), null, 'null is absent');
  t.equal(clubSyncTarget({ clubId: '  ', teamId: 't1' }), null, 'blank is absent');
  t.equal(clubSyncTarget({ clubId: { id: 1 }, teamId: 't' }), null, 'other values are no identifiers (the API refuses them with 400)');
  t.equal(clubSyncTarget({ clubId: true, teamId: 't' }), null);
  t.equal(clubSyncTarget([]), null);
});

t.test("the club's side of the match: ids, then the side the app names, then names and aliases, never guessed", async (t) => {
  const teams = { homeTeam: { name: 'Lakeside Herons' }, awayTeam: { name: 'Hillcrest Owls' } };
  const team = (names: string[], settled: 'home' | 'away' | null = null) => ({ teamId: 't1', names, settled });
  t.equal(clubSide({ homeTeam: { name: 'A', teamId: 't1' }, awayTeam: { name: 'B' } }, team([])), 'home', 'a side object carries the teamId');
  t.equal(clubSide({ teams: { home: { id: 'x' }, away: { id: 't1' } } }, team([])), 'away', 'nested sides, by id');
  t.equal(
    clubSide({ homeTeam: { name: 'Hillcrest Owls', teamId: 't1' }, awayTeam: { name: 'Lakeside Herons' }, side: 'away' }, team(['Lakeside Herons'])),
    'home',
    "ids win over the app's side field and names",
  );
  t.equal(clubSide({ ...teams, side: 'away' }, team([])), 'away', 'the side the app names');
  t.equal(clubSide({ ...teams, homeAway: 'home' }, team([])), 'home');
  t.equal(clubSide(teams, team(['hillcrest owls'])), 'away', 'named like the club team, case ignored');
  t.equal(
    clubSide({ homeTeam: { name: 'Lakeside Herons U18 Girls' }, awayTeam: { name: 'Hillcrest Owls U18' } }, team(['Lakeside Herons'])),
    'home',
    'age-group suffixes ignored',
  );
  t.equal(
    clubSide({ homeTeam: { name: 'Hillcrest Owls' }, awayTeam: { name: 'Sporting Mälmo-Süd, U-16' } }, team(['Sporting Malmo Sud'])),
    'away',
    'accents and punctuation ignored',
  );
  t.equal(
    clubSide({ homeTeam: { name: 'Owls' }, awayTeam: { name: 'LH Volley' } }, team(['Lakeside Herons', 'LH Volley'])),
    'away',
    'an alias the admin registered',
  );
  t.equal(clubSide(teams, team(['Riverside Comets'])), null, 'no side named like the team: unknown');
  t.equal(clubSide({ homeTeam: { name: 'Herons U16' }, awayTeam: { name: 'Herons U18' } }, team(['Herons'])), null, 'both sides named alike: unknown');
  t.equal(clubSide(teams, team(['Riverside Comets'], 'home')), 'home', 'the side the admin settled wins');
  t.equal(
    clubSide({ homeTeam: { name: 'Lakeside Herons' }, awayTeam: { name: 'Owls' } }, team(['Lakeside Herons'], 'away')),
    'away',
    "the admin's choice stands over a later upload's names",
  );
  t.equal(clubSide('not an object', team(['x'])), null);
  t.equal(normalTeamName('  Lakeside  HERONS U18 Girls '), 'lakeside herons');
  t.equal(normalTeamName('Lakeside Herons Under 18'), 'lakeside herons');
  t.equal(normalTeamName("St. Mary's 2nd"), 'st marys');
  t.equal(normalTeamName('U18'), 'u18', 'a name that is only a suffix stays');
  t.equal(normalTeamName('  Lakeside  HERONS U18 Girls '), 'lakeside herons', 'asked again (remembered): the same');
  const long = `${'Lakeside Herons '.repeat(20)}U18`;
  t.equal(normalTeamName(long), normalTeamName(long), 'a name too long to remember is normalised each time, alike');
  const players = [
    { name: 'a', team: 'home' },
    { name: 'b', team: 'away' },
  ];
  t.same(clubPlayers(players, 'home'), [{ name: 'a', team: 'home' }]);
  t.same(clubPlayers(players, null), players, 'side unknown: every player');
  t.same(clubPlayers([{ team: null }], 'home'), [{ team: null }], 'players without a side: every player');
});

t.test('mayNameClub never misses a payload that names both, escaped or not', async (t) => {
  t.ok(mayNameClub('{"clubId":"c","teamId":"t"}'));
  t.ok(mayNameClub('{"\\u0063lubId":"c","teamId":"t"}'), 'an escape means maybe');
  t.notOk(mayNameClub('{"clubId":"c"}'));
  t.notOk(mayNameClub('{"v":1}'));
});

t.test(
  'the club\'s name with the team\'s finds the side: "Lakeside Volleyball Club U18 Girls" is the team U18 Girls of Lakeside Volleyball Club',
  async (t) => {
    const names = ['U18 Girls', 'Lakeside Volleyball Club U18 Girls', 'Lakeside Volleyball Club'];
    const team = { teamId: 't1', names, settled: null };
    t.equal(clubSide({ homeTeam: { name: 'Hillcrest Herons' }, awayTeam: { name: 'Lakeside Volleyball Club U18 Girls' } }, team), 'away');
    t.equal(clubSide({ homeTeam: { name: 'Lakeside Volleyball Club' }, awayTeam: { name: 'Hillcrest Herons' } }, team), 'home', "the club's name alone");
    t.equal(
      clubSide({ homeTeam: { name: 'Lakeside Volleyball Club U16' }, awayTeam: { name: 'Lakeside Volleyball Club U18 Girls' } }, team),
      null,
      'two teams of the club: still unknown, never guessed',
    );
  },
);
