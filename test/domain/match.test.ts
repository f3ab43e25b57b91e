import t from 'tap';
import { decideMatch, evolveMatch, initialMatchState, type UploadMatch } from '../../src/domain/match.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import type { MatchEvent } from '../../src/domain/matchEvents.js';
import { payloadDigest, saltedVersion } from '../../src/domain/payloadDigest.js';
import { createWriteTokenHasher, presentWriteToken } from '../../src/domain/writeToken.js';
import { deciderSpec } from '../helpers/givenWhenThen.js';

// The spec's state table (section 3), row by row, and its three rules.
const given = deciderSpec({ initialState: initialMatchState, decide: decideMatch, evolve: evolveMatch });
const hash = createWriteTokenHasher(Buffer.alloc(32, 7));
const matchId = 'm-1';
const tokenA = 'token-a-0123456789abcdef';
const tokenB = 'token-b-0123456789abcdef';
const v1 = asJsonText('{"v":1}');
const v2 = asJsonText('{"v":2}');
const v3 = asJsonText('{"v":3}');
const SALT = Buffer.alloc(16, 3);

const upload = (via: 'POST' | 'PUT', payload = v2, token: string | null = null): UploadMatch => ({
  type: 'UploadMatch',
  via,
  matchId,
  payload,
  payloadSalt: SALT.toString('base64'),
  writeToken: token === null ? null : presentWriteToken(hash, matchId, token),
});

const createdProtected: MatchEvent = {
  type: 'MatchCreated',
  data: { matchId, protection: 'protected', writeTokenHash: hash(matchId, tokenA), createdVia: 'POST', ...saltedVersion(v1, SALT), payload: v1 },
};
const createdUnprotectedByPost: MatchEvent = {
  type: 'MatchCreated',
  data: { matchId, protection: 'unprotected', createdVia: 'POST', ...saltedVersion(v1, SALT), payload: v1 },
};
const createdByPut: MatchEvent = {
  type: 'MatchCreated',
  data: { matchId, protection: 'unprotected', createdVia: 'PUT', ...saltedVersion(v1, SALT), payload: v1 },
};
const replaced = (via: 'POST' | 'PUT', payload = v2): MatchEvent => ({
  type: 'MatchReplaced',
  data: { matchId, replacedVia: via, ...saltedVersion(payload, SALT), payload },
});

t.test('row 1: no match + POST without X-Write-Token → created unprotected', async (t) => {
  given([]).when(upload('POST', v1)).then(t, [createdUnprotectedByPost]);
});

t.test('row 2: no match + POST with X-Write-Token → created protected, token hash bound', async (t) => {
  given([])
    .when(upload('POST', v1, tokenA))
    .then(t, [createdProtected]);
});

t.test('row 3: no match + PUT → created unprotected, with or without the header', async (t) => {
  given([]).when(upload('PUT', v1)).then(t, [createdByPut]);
  given([])
    .when(upload('PUT', v1, tokenA))
    .then(t, [createdByPut], 'the header does not protect a PUT-create');
});

t.test('row 4: unprotected + POST or PUT → replaced, no header needed', async (t) => {
  for (const created of [createdUnprotectedByPost, createdByPut]) {
    given([created])
      .when(upload('POST'))
      .then(t, [replaced('POST')]);
    given([created])
      .when(upload('PUT'))
      .then(t, [replaced('PUT')]);
  }
});

t.test('row 5: protected + POST or PUT with the same token → replaced (a retried POST is safe)', async (t) => {
  given([createdProtected])
    .when(upload('POST', v2, tokenA))
    .then(t, [replaced('POST')]);
  given([createdProtected])
    .when(upload('PUT', v2, tokenA))
    .then(t, [replaced('PUT')]);
  given([createdProtected, replaced('POST')])
    .when(upload('POST', v3, tokenA))
    .then(t, [replaced('POST', v3)], 'still after replacements');
});

t.test('row 6: protected + POST or PUT with a missing or different token → 403, nothing appended', async (t) => {
  for (const via of ['POST', 'PUT'] as const) {
    given([createdProtected])
      .when(upload(via))
      .thenThrows(t, 'forbidden', /X-Write-Token/);
    given([createdProtected])
      .when(upload(via, v2, tokenB))
      .thenThrows(t, 'forbidden', /does not match/);
  }
});

t.test('a token is bound to its match: the same token hashed for another id does not match', async (t) => {
  const command = { ...upload('POST', v2), writeToken: presentWriteToken(hash, 'other-match', tokenA) };
  given([createdProtected]).when(command).thenThrows(t, 'forbidden');
});

t.test('rule 1: only the creating POST with a token protects', async (t) => {
  const state = [createdProtected].reduce(evolveMatch, initialMatchState());
  t.match(state, { exists: true, protection: 'protected', writeTokenHash: hash(matchId, tokenA) });
});

t.test('rule 2: a PUT-created match stays unprotected; anyone with its id may update it', async (t) => {
  given([createdByPut, replaced('PUT'), replaced('POST')])
    .when(upload('PUT', v3))
    .then(t, [replaced('PUT', v3)]);
});

t.test('rule 3: a match created without the header never becomes protected', async (t) => {
  // A later upload with a token is accepted, and after it an upload without one still is.
  given([createdUnprotectedByPost])
    .when(upload('POST', v2, tokenA))
    .then(t, [replaced('POST')]);
  given([createdUnprotectedByPost, replaced('POST')])
    .when(upload('PUT', v3))
    .then(t, [replaced('PUT', v3)]);
  given([createdUnprotectedByPost, replaced('POST')])
    .when(upload('POST', v3, tokenB))
    .then(t, [replaced('POST', v3)]);
  const state = [createdUnprotectedByPost, replaced('POST')].reduce(evolveMatch, initialMatchState());
  t.match(state, { exists: true, protection: 'unprotected', writeTokenHash: null });
});

// Token format (spec section 5 rule 3 leaves it open): checked only where a token would be bound.
const malformed = ['short', 'has space in it', 'tab\there-123', 'ünïcödé-token', '', 'x'.repeat(1025)];

t.test('format: a creating POST binds only 8-1024 visible ASCII characters, else 400 and nothing stored', async (t) => {
  for (const token of ['12345678', '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 'x'.repeat(1024)]) {
    given([])
      .when(upload('POST', v1, token))
      .then(t, [{ ...createdProtected, data: { ...createdProtected.data, writeTokenHash: hash(matchId, token) } }], `binds ${token.slice(0, 20)}`);
  }
  for (const token of malformed) {
    given([])
      .when(upload('POST', v1, token))
      .thenThrows(t, 'validation', /8-1024 visible ASCII/);
  }
});

t.test('format: on a protected match any token but the stored one is 403, whatever its shape', async (t) => {
  for (const via of ['POST', 'PUT'] as const) {
    for (const token of malformed)
      given([createdProtected])
        .when(upload(via, v2, token))
        .thenThrows(t, 'forbidden', /does not match/);
  }
});

t.test('format: a PUT-create and writes to an unprotected match ignore the header, however malformed', async (t) => {
  for (const token of malformed) {
    given([])
      .when(upload('PUT', v1, token))
      .then(t, [createdByPut]);
    for (const created of [createdUnprotectedByPost, createdByPut]) {
      given([created])
        .when(upload('POST', v2, token))
        .then(t, [replaced('POST')]);
      given([created])
        .when(upload('PUT', v2, token))
        .then(t, [replaced('PUT')]);
    }
  }
});

// A client that times out sends the same upload again (spec section 4): that is not a new version.
t.test('the very payload already stored, sent again where writing is allowed, stores nothing', async (t) => {
  given([createdProtected])
    .when(upload('POST', v1, tokenA))
    .then(t, [], 'a retried creating POST');
  given([createdProtected, replaced('PUT')])
    .when(upload('PUT', v2, tokenA))
    .then(t, [], 'a retried replace');
  given([createdByPut]).when(upload('POST', v1)).then(t, [], 'unprotected, either verb');
  given([createdProtected, replaced('PUT')])
    .when(upload('PUT', v1, tokenA))
    .then(t, [replaced('PUT', v1)], 'an older version sent again is a change');
  const longer = asJsonText('{"v":2,"rally":1}');
  given([createdProtected, replaced('PUT')])
    .when(upload('PUT', longer, tokenA))
    .then(t, [replaced('PUT', longer)], 'a longer text (one more rally) is a change, told by its length');
  // Texts of one length, told apart by their ends or, alike there, by the digest.
  const long = (middle: string, start = 'a') => asJsonText(`{"start":"${start}","pad":"${'x'.repeat(600)}","middle":"${middle}","end":"${'y'.repeat(600)}"}`);
  const created = (payload: ReturnType<typeof long>): MatchEvent => ({
    ...createdProtected,
    data: { ...createdProtected.data, ...saltedVersion(payload, SALT), payload },
  });
  given([created(long('1'))])
    .when(upload('POST', long('1'), tokenA))
    .then(t, [], 'a long text sent again stores nothing');
  given([created(long('1'))])
    .when(upload('POST', long('1', 'b'), tokenA))
    .then(t, [replaced('POST', long('1', 'b'))], 'a text of the same length changed near its start is a change');
  given([created(long('1'))])
    .when(upload('POST', long('2'), tokenA))
    .then(t, [replaced('POST', long('2'))], 'a text of the same length changed only in its middle is a change, told by its digest');
});

t.test('a repeated payload is still judged by the protection rules first', async (t) => {
  given([createdProtected])
    .when(upload('POST', v1))
    .thenThrows(t, 'forbidden', /X-Write-Token/);
  given([createdProtected])
    .when(upload('PUT', v1, tokenB))
    .thenThrows(t, 'forbidden', /does not match/);
});

t.test('versions stored before digests were kept are replaced even by the same text', async (t) => {
  const { payloadSalt: _salt, payloadSha256: _digest, ...undigested } = createdProtected.data;
  given([{ type: 'MatchCreated', data: undigested }])
    .when(upload('POST', v1, tokenA))
    .then(t, [replaced('POST', v1)]);
});

t.test('a version stored with an unsalted digest (before salts) is told from the same text by it', async (t) => {
  const { payloadSalt: _salt, payloadSha256: _digest, ...unsalted } = createdProtected.data;
  given([{ type: 'MatchCreated', data: { ...unsalted, payloadDigest: payloadDigest(v1) } }])
    .when(upload('POST', v1, tokenA))
    .then(t, []);
  given([{ type: 'MatchCreated', data: { ...unsalted, payloadDigest: payloadDigest(v1) } }])
    .when(upload('POST', v2, tokenA))
    .then(t, [replaced('POST', v2)]);
});

t.test('a new version carries a salt and its salted digest, never the unsalted one', async (t) => {
  const [event] = decideMatch({ ...upload('POST', v1, tokenA), payloadSalt: Buffer.alloc(16, 9).toString('base64') }, initialMatchState());
  t.equal(event?.type, 'MatchCreated');
  t.notOk(event && 'payloadDigest' in event.data, 'no unsalted digest');
  t.same(event && 'payloadSalt' in event.data ? event.data.payloadSalt : null, Buffer.alloc(16, 9).toString('base64'));
});
