import t from 'tap';
import { formatAppKey, generateAppKey } from '../../src/domain/appKey.js';
import { decideClub, evolveClub, type ExistingClub, initialClubState, MAX_ACTIVE_APP_KEYS, verifyAppKey } from '../../src/domain/club.js';
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
    .when({ type: 'RegisterClub', clubId: 'c0000000000000001', name: '  Lakeside VC ', adminEmail: 'admin@lakeside.test', passwordHash: 'scrypt$x', teams: [{ teamId: 'team000001', name: 'U16 Women' }], at })
    .then(t, [registered, u16], 'names are trimmed, teams are added with the club');
  spec([registered])
    .when({ type: 'RegisterClub', clubId: 'c0000000000000001', name: 'Again', adminEmail: 'x@y.test', passwordHash: 'h', teams: [], at })
    .thenThrows(t, 'conflict', /already exists/);
  spec([])
    .when({ type: 'RegisterClub', clubId: 'c1', name: '   ', adminEmail: 'x@y.test', passwordHash: 'h', teams: [], at })
    .thenThrows(t, 'validation', /club name is empty/);
  spec([])
    .when({ type: 'RegisterClub', clubId: 'c1', name: 'Club', adminEmail: 'x@y.test', passwordHash: 'h', teams: [{ teamId: 'a', name: 'U16' }, { teamId: 'b', name: 'u16' }], at })
    .thenThrows(t, 'validation', /given twice/);
  spec([]).when({ type: 'AddTeam', teamId: 't', name: 'U18' }).thenThrows(t, 'not_found', /no such club/);
});

t.test('teams', async (t) => {
  spec([registered]).when({ type: 'AddTeam', teamId: 'team000002', name: 'U18 Men' }).then(t, [{ type: 'TeamAdded', data: { teamId: 'team000002', name: 'U18 Men' } }]);
  spec([registered, u16]).when({ type: 'AddTeam', teamId: 'team000002', name: 'u16 women' }).thenThrows(t, 'validation', /already has a team named/);
  spec([registered, u16]).when({ type: 'AddTeam', teamId: 'team000001', name: 'Other' }).thenThrows(t, 'conflict', /already exists/);
  spec([registered]).when({ type: 'AddTeam', teamId: 'team000002', name: 'x'.repeat(61) }).thenThrows(t, 'validation', /longer than 60/);
  spec([registered]).when({ type: 'AddTeam', teamId: 'team000002', name: 'bad\u0007name' }).thenThrows(t, 'validation', /printable/);
  spec([registered, u16]).when({ type: 'RenameTeam', teamId: 'team000001', name: 'U17 Women' }).then(t, [{ type: 'TeamRenamed', data: { teamId: 'team000001', name: 'U17 Women' } }]);
  spec([registered, u16]).when({ type: 'RenameTeam', teamId: 'team000001', name: 'U16 Women' }).then(t, [], 'renaming to the same name changes nothing');
  spec([registered, u16]).when({ type: 'RenameTeam', teamId: 'nope', name: 'X' }).thenThrows(t, 'not_found', /no team nope/);
  const renamed = fold([registered, u16, { type: 'TeamRenamed', data: { teamId: 'team000001', name: 'U17 Women' } }]);
  t.same(renamed.teams, [{ teamId: 'team000001', name: 'U17 Women' }]);
});

t.test('app keys', async (t) => {
  const key2 = generateAppKey();
  spec([registered])
    .when({ type: 'IssueAppKey', keyId: key1.keyId, prefix: key1.prefix, hash: key1.hash, label: ' scoring tablet ', at })
    .then(t, [issued1], 'the event holds id, prefix and hash, never the key');
  spec([registered, issued1]).when({ type: 'IssueAppKey', keyId: key1.keyId, prefix: 'p', hash: 'h', label: '', at }).thenThrows(t, 'conflict', /already exists/);
  spec([registered, issued1])
    .when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: key2.prefix, hash: key2.hash, label: '', at })
    .then(t, [{ type: 'AppKeyIssued', data: { keyId: key2.keyId, prefix: key2.prefix, hash: key2.hash, label: '', issuedAt: at } }], 'several keys may be active');
  const many: ClubEvent[] = Array.from({ length: MAX_ACTIVE_APP_KEYS }, (_, i) => ({
    type: 'AppKeyIssued',
    data: { keyId: `k${String(i).padStart(9, '0')}`, prefix: 'p', hash: 'h', label: '', issuedAt: at },
  }));
  spec([registered, ...many]).when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', at }).thenThrows(t, 'validation', /revoke one/);
  const revokedOne: ClubEvent = { type: 'AppKeyRevoked', data: { keyId: 'k000000000', revokedAt: at } };
  spec([registered, ...many, revokedOne])
    .when({ type: 'IssueAppKey', keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', at })
    .then(t, [{ type: 'AppKeyIssued', data: { keyId: key2.keyId, prefix: 'p', hash: 'h', label: '', issuedAt: at } }], 'revoked keys do not count');
  spec([registered, issued1]).when({ type: 'RevokeAppKey', keyId: key1.keyId, at }).then(t, [{ type: 'AppKeyRevoked', data: { keyId: key1.keyId, revokedAt: at } }]);
  spec([registered, issued1, { type: 'AppKeyRevoked', data: { keyId: key1.keyId, revokedAt: at } }])
    .when({ type: 'RevokeAppKey', keyId: key1.keyId, at: '2026-03-02T00:00:00.000Z' })
    .then(t, [], 'revoking twice changes nothing');
  spec([registered]).when({ type: 'RevokeAppKey', keyId: 'nokey00000', at }).thenThrows(t, 'not_found', /no app key/);
});

t.test('logout ends sessions', async (t) => {
  spec([registered]).when({ type: 'EndAdminSessions', at }).then(t, [{ type: 'AdminLoggedOut', data: { at } }]);
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
