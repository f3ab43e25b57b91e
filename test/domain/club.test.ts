import t from 'tap';
import { formatAppKey, generateAppKey } from '../../src/domain/appKey.js';
import {
  decideClub,
  evolveClub,
  type ExistingClub,
  initialClubState,
  MAX_ACTIVE_APP_KEYS,
  MAX_TEAM_ALIASES,
  nameToRemember,
  namesOfTeam,
  verifyAppKey,
} from '../../src/domain/club.js';
import type { ClubEvent } from '../../src/domain/clubEvents.js';
import { deciderSpec } from '../helpers/givenWhenThen.js';

const at = '2026-03-01T10:00:00.000Z';
const registered: ClubEvent = {
  type: 'ClubRegistered',
  data: { clubId: 'c0000000000000001', name: 'Lakeside VC', adminEmail: 'admin@lakeside.test', passwordHash: 'scrypt$x', registeredAt: at },
};
const u16: ClubEvent = { type: 'TeamAdded', data: { teamId: 'team000001', name: 'U16 Women' } };
const key1 = generateAppKey();
const issued1: ClubEvent = { type: 'AppKeyIssued', data: { keyId: key1.keyId, prefix: key1.prefix, hash: key1.hash, label: 'scoring tablet', issuedAt: at } };

const spec = deciderSpec({ initialState: initialClubState, decide: decideClub, evolve: evolveClub });
const fold = (events: ClubEvent[]) => {
  const state = events.reduce(evolveClub, initialClubState());
  if (!state.exists) throw new Error('no club');
  return state;
};

t.test('registering', async (t) => {
  spec([])
    .when({
      type: 'RegisterClub',
      clubId: 'c0000000000000001',
      name: '  Lakeside VC ',
      adminEmail: 'admin@lakeside.test',
      passwordHash: 'scrypt$x',
      teams: [{ teamId: 'team000001', name: 'U16 Women' }],
      at,
    })
    .then(t, [registered, u16], 'names are trimmed, teams are added with the club');
  spec([registered])
    .when({ type: 'RegisterClub', clubId: 'c0000000000000001', name: 'Again', adminEmail: 'x@y.test', passwordHash: 'h', teams: [], at })
    .thenThrows(t, 'conflict', /already exists/);
  spec([])
    .when({ type: 'RegisterClub', clubId: 'c1', name: '   ', adminEmail: 'x@y.test', passwordHash: 'h', teams: [], at })
    .thenThrows(t, 'validation', /club name is empty/);
  spec([])
    .when({
      type: 'RegisterClub',
      clubId: 'c1',
      name: 'Club',
      adminEmail: 'x@y.test',
      passwordHash: 'h',
      teams: [
        { teamId: 'a', name: 'U16' },
        { teamId: 'b', name: 'u16' },
      ],
      at,
    })
    .thenThrows(t, 'validation', /given twice/);
  spec([])
    .when({ type: 'AddTeam', teamId: 't', name: 'U18' })
    .thenThrows(t, 'not_found', /no such club/);
});

t.test('teams', async (t) => {
  spec([registered])
    .when({ type: 'AddTeam', teamId: 'team000002', name: 'U18 Men' })
    .then(t, [{ type: 'TeamAdded', data: { teamId: 'team000002', name: 'U18 Men' } }]);
  spec([registered, u16])
    .when({ type: 'AddTeam', teamId: 'team000002', name: 'u16 women' })
    .thenThrows(t, 'validation', /already has a team named/);
  spec([registered, u16])
    .when({ type: 'AddTeam', teamId: 'team000001', name: 'Other' })
    .thenThrows(t, 'conflict', /already exists/);
  spec([registered])
    .when({ type: 'AddTeam', teamId: 'team000002', name: 'x'.repeat(61) })
    .thenThrows(t, 'validation', /longer than 60/);
  spec([registered])
    .when({ type: 'AddTeam', teamId: 'team000002', name: 'bad\u0007name' })
    .thenThrows(t, 'validation', /printable/);
  spec([registered, u16])
    .when({ type: 'RenameTeam', teamId: 'team000001', name: 'U17 Women' })
    .then(t, [{ type: 'TeamRenamed', data: { teamId: 'team000001', name: 'U17 Women' } }]);
  spec([registered, u16]).when({ type: 'RenameTeam', teamId: 'team000001', name: 'U16 Women' }).then(t, [], 'renaming to the same name changes nothing');
  spec([registered, u16])
    .when({ type: 'RenameTeam', teamId: 'nope', name: 'X' })
    .thenThrows(t, 'not_found', /no team nope/);
  const renamed = fold([registered, u16, { type: 'TeamRenamed', data: { teamId: 'team000001', name: 'U17 Women' } }]);
  t.same(renamed.teams, [{ teamId: 'team000001', name: 'U17 Women', aliases: [] }]);
});

t.test('app keys', async (t) => {
  const key2 = generateAppKey();
  spec([registered])
    .when({ type: 'IssueAppKey', keyId: key1.keyId, prefix: key1.prefix, hash: key1.hash, label: ' scoring tablet ', at })
    .then(t, [issued1], 'the event holds id, prefix and hash, never the key');
  spec([registered, issued1])
    .when({ type: 'IssueAppKey', keyId: key1.keyId, prefix: 'p', hash: 'h', label: '', at })
    .thenThrows(t, 'conflict', /already exists/);
  spec([registered, issued1])
    .when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: key2.prefix, hash: key2.hash, label: '', at })
    .then(
      t,
      [{ type: 'AppKeyIssued', data: { keyId: key2.keyId, prefix: key2.prefix, hash: key2.hash, label: '', issuedAt: at } }],
      'several keys may be active',
    );
  const many: ClubEvent[] = Array.from({ length: MAX_ACTIVE_APP_KEYS }, (_, i) => ({
    type: 'AppKeyIssued',
    data: { keyId: `k${String(i).padStart(9, '0')}`, prefix: 'p', hash: 'h', label: '', issuedAt: at },
  }));
  spec([registered, ...many])
    .when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', at })
    .thenThrows(t, 'validation', /revoke one/);
  const revokedOne: ClubEvent = { type: 'AppKeyRevoked', data: { keyId: 'k000000000', revokedAt: at } };
  spec([registered, ...many, revokedOne])
    .when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', at })
    .then(t, [{ type: 'AppKeyIssued', data: { keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', issuedAt: at } }], 'revoked keys do not count');
  spec([registered, issued1])
    .when({ type: 'RevokeAppKey', keyId: key1.keyId, at })
    .then(t, [{ type: 'AppKeyRevoked', data: { keyId: key1.keyId, revokedAt: at } }]);
  spec([registered, issued1, { type: 'AppKeyRevoked', data: { keyId: key1.keyId, revokedAt: at } }])
    .when({ type: 'RevokeAppKey', keyId: key1.keyId, at: '2026-03-02T00:00:00.000Z' })
    .then(t, [], 'revoking twice changes nothing');
  spec([registered])
    .when({ type: 'RevokeAppKey', keyId: 'nokey00000', at })
    .thenThrows(t, 'not_found', /no app key/);
});

t.test('logout ends sessions', async (t) => {
  spec([registered])
    .when({ type: 'EndAdminSessions', at })
    .then(t, [{ type: 'AdminLoggedOut', data: { at } }]);
  t.equal(fold([registered, { type: 'AdminLoggedOut', data: { at } }]).sessionsEndedAt, at);
});

t.test('verifying an X-App-Key against the club as it is now', async (t) => {
  const club: ExistingClub = fold([registered, u16, issued1]);
  const other = generateAppKey();
  t.same(verifyAppKey(club, key1.key), { valid: true, keyId: key1.keyId }, 'a key of the club');
  t.same(verifyAppKey(club, ` ${key1.key} `), { valid: true, keyId: key1.keyId }, 'surrounding blanks are ignored');
  t.same(verifyAppKey(club, null), { valid: false, problem: 'missing_key', keyId: null });
  t.same(verifyAppKey(club, ''), { valid: false, problem: 'missing_key', keyId: null });
  t.same(verifyAppKey(club, key1.key.slice(0, -1)), { valid: false, problem: 'malformed_key', keyId: null }, 'a typo is caught by the checksum');
  t.same(verifyAppKey(club, other.key), { valid: false, problem: 'unknown_key', keyId: null }, 'a key of another club');
  const forged = formatAppKey(key1.keyId, 'B'.repeat(32));
  t.same(verifyAppKey(club, forged), { valid: false, problem: 'wrong_key', keyId: key1.keyId }, 'right id, wrong secret');
  const revoked = fold([registered, u16, issued1, { type: 'AppKeyRevoked', data: { keyId: key1.keyId, revokedAt: at } }]);
  t.same(verifyAppKey(revoked, key1.key), { valid: false, problem: 'revoked_key', keyId: key1.keyId }, 'revoked stops at once');
});

t.test('team aliases: the other names scoring apps use', async (t) => {
  const aliasesSet = (aliases: string[]): ClubEvent => ({ type: 'TeamAliasesSet', data: { teamId: 'team000001', aliases } });
  spec([registered, u16])
    .when({ type: 'SetTeamAliases', teamId: 'team000001', aliases: [' Lakeside Herons U16 ', '', 'lakeside herons u16', 'LH Girls'] })
    .then(t, [aliasesSet(['Lakeside Herons U16', 'LH Girls'])], 'trimmed, blanks dropped, the same name once');
  spec([registered, u16, aliasesSet(['LH'])])
    .when({ type: 'SetTeamAliases', teamId: 'team000001', aliases: ['LH'] })
    .then(t, [], 'the same list changes nothing');
  spec([registered, u16, aliasesSet(['LH'])])
    .when({ type: 'SetTeamAliases', teamId: 'team000001', aliases: [] })
    .then(t, [aliasesSet([])], 'all aliases removed');
  spec([registered, u16])
    .when({ type: 'SetTeamAliases', teamId: 'nope', aliases: ['x'] })
    .thenThrows(t, 'not_found', /no team nope/);
  spec([registered, u16])
    .when({ type: 'SetTeamAliases', teamId: 'team000001', aliases: ['bad\u0007'] })
    .thenThrows(t, 'validation', /printable/);
  spec([registered, u16])
    .when({ type: 'SetTeamAliases', teamId: 'team000001', aliases: Array.from({ length: 11 }, (_, i) => `Alias ${i}`) })
    .thenThrows(t, 'validation', /at most 10 aliases/);
  t.same(fold([registered, u16, aliasesSet(['LH'])]).teams, [{ teamId: 'team000001', name: 'U16 Women', aliases: ['LH'] }]);
});

t.test('per-club enforcement: the club requires an app key for every sync', async (t) => {
  const required: ClubEvent = { type: 'AppKeyRequirementSet', data: { required: true, at } };
  spec([registered]).when({ type: 'SetAppKeyRequirement', required: true, at }).then(t, [required]);
  spec([registered, required])
    .when({ type: 'SetAppKeyRequirement', required: true, at: '2026-03-05T00:00:00.000Z' })
    .then(t, [], 'requiring twice keeps the first "since"');
  spec([registered]).when({ type: 'SetAppKeyRequirement', required: false, at }).then(t, [], 'not required is the default');
  const later = '2026-03-05T00:00:00.000Z';
  spec([registered, required])
    .when({ type: 'SetAppKeyRequirement', required: false, at: later })
    .then(t, [{ type: 'AppKeyRequirementSet', data: { required: false, at: later } }]);
  t.equal(fold([registered, required]).appKeyRequiredSince, at, 'since when');
  t.equal(fold([registered, required, { type: 'AppKeyRequirementSet', data: { required: false, at: later } }]).appKeyRequiredSince, null);
});

t.test("the admin settles a match's side and excludes or re-includes matches", async (t) => {
  const settled: ClubEvent = { type: 'MatchSideSettled', data: { matchId: 'm1', side: 'away', at } };
  spec([registered]).when({ type: 'SettleMatchSide', matchId: 'm1', side: 'away', at }).then(t, [settled]);
  spec([registered, settled]).when({ type: 'SettleMatchSide', matchId: 'm1', side: 'away', at }).then(t, [], 'the same choice again changes nothing');
  spec([registered, settled])
    .when({ type: 'SettleMatchSide', matchId: 'm1', side: 'home', at })
    .then(t, [{ type: 'MatchSideSettled', data: { matchId: 'm1', side: 'home', at } }], 'a choice can be corrected');
  spec([registered])
    .when({ type: 'SettleMatchSide', matchId: 'constructor', side: 'home', at })
    .then(t, [{ type: 'MatchSideSettled', data: { matchId: 'constructor', side: 'home', at } }], 'match ids are data, not object keys');
  t.same(fold([registered, settled]).settledSides, { m1: 'away' });

  const excluded: ClubEvent = { type: 'MatchExcluded', data: { matchId: 'm1', at } };
  spec([registered]).when({ type: 'ExcludeMatch', matchId: 'm1', at }).then(t, [excluded]);
  spec([registered, excluded]).when({ type: 'ExcludeMatch', matchId: 'm1', at }).then(t, [], 'excluding twice changes nothing');
  spec([registered]).when({ type: 'IncludeMatch', matchId: 'm1', at }).then(t, [], 'a counted match is included already');
  spec([registered, excluded])
    .when({ type: 'IncludeMatch', matchId: 'm1', at })
    .then(t, [{ type: 'MatchIncluded', data: { matchId: 'm1', at } }]);
  t.same(fold([registered, excluded]).excludedMatches, { m1: at });
  t.same(fold([registered, excluded, { type: 'MatchIncluded', data: { matchId: 'm1', at } }]).excludedMatches, {});
});

t.test('"remember this name" when settling a side: the name becomes an alias of the match\'s team, once', async (t) => {
  const settled: ClubEvent = { type: 'MatchSideSettled', data: { matchId: 'm1', side: 'away', at } };
  const remembered: ClubEvent = { type: 'TeamAliasesSet', data: { teamId: 'team000001', aliases: ['Lakeside Volley'] } };
  const remember = (name: string) => ({ type: 'SettleMatchSide' as const, matchId: 'm1', side: 'away' as const, at, remember: { teamId: 'team000001', name } });
  spec([registered, u16]).when(remember(' Lakeside Volley ')).then(t, [settled, remembered], 'settled and remembered in one append');
  spec([registered, u16, settled, remembered]).when(remember('LAKESIDE volley')).then(t, [], 'a name the team already answers to is not added again');
  spec([registered, u16]).when(remember('Lakeside VC U16 Women')).then(t, [settled], "the club's name followed by the team's finds the team already");
  spec([registered, u16]).when(remember('Lakeside VC')).then(t, [settled], "the club's name alone finds it already");
  spec([registered, u16])
    .when({ ...remember('Lakeside Volley'), remember: { teamId: 'no-such-team', name: 'Lakeside Volley' } })
    .then(t, [settled], 'a team that is gone: only the side');
  const full: ClubEvent = { type: 'TeamAliasesSet', data: { teamId: 'team000001', aliases: Array.from({ length: MAX_TEAM_ALIASES }, (_, i) => `Alias ${i}`) } };
  spec([registered, u16, full]).when(remember('Lakeside Volley')).then(t, [settled], 'a team with MAX_TEAM_ALIASES keeps them: only the side');
  const club = fold([registered, u16]);
  const team = club.teams[0]!;
  t.equal(nameToRemember(club, team, 'Lakeside Volley'), 'new');
  t.equal(nameToRemember(club, team, 'U16 Women'), 'known');
  t.equal(nameToRemember(club, team, '   '), 'invalid');
  const fullClub = fold([registered, u16, full]);
  t.equal(nameToRemember(fullClub, fullClub.teams[0]!, 'Lakeside Volley'), 'full');
  t.same(namesOfTeam(club, team), ['U16 Women', 'Lakeside VC U16 Women', 'Lakeside VC'], "the team's own names, and the club's name with it and alone");
});
