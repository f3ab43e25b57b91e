import Fastify from 'fastify';
import t from 'tap';
import { registerErrorHandling } from '../../src/http/errorHandling.js';
import { registerJsonBody } from '../../src/http/api/jsonBody.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { payloadTextsOfEveryShape } from '../helpers/fixtures.js';
import { join } from 'node:path';
import { allProjections } from '../../projections/all.js';
import { BASIS_AT_ONCE_CHARS } from '../../projections/matchHistory.js';
import { verifyProjection } from '../../projections/verify.js';
import { MATCH_HISTORY } from '../../src/readmodel/matchHistoryDocs.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { json, startTestApp, tempDataDir, type TestApp } from '../helpers/testApp.js';

/** What an answer says apart from what differs between any two stores (receipts, times, request ids). */
function answerOf(res: { statusCode: number; json(): unknown }) {
  const body = res.json() as Record<string, unknown>;
  return { status: res.statusCode, message: body.message ?? null, id: body.id ?? null, crmSync: body.crmSync ?? null };
}

/** What readers see of a match: its payload, its history's diffs and its page's title. */
async function readersOf({ app }: TestApp, id: string) {
  const { payload, revision, versions } = (await app.inject({ url: `/api/matches/${id}` })).json() as Record<string, unknown>;
  const history = (await app.inject({ url: `/api/matches/${id}/history?limit=100` })).json() as { entries: Record<string, unknown>[] };
  const page = (await app.inject({ url: `/match/${id}/history` })).body;
  return {
    // As text: tap's deep comparison recurses, and the corpus nests 64 deep.
    payload: JSON.stringify(payload),
    revision,
    versions,
    diffs: history.entries.map((entry) => ({ revision: entry.revision, type: entry.type, diff: entry.diff })),
    title: /<title>([^<]*)<\/title>/.exec(page)?.[1] ?? null,
  };
}

t.test('uploads read on the helper thread are answered and stored as those read in place', async (t) => {
  // Every body on the thread: a live match's next upload would otherwise be parsed in place against its last (LIVE_PARSE_BYTES).
  const onThread = await startTestApp(t, { HELPER_THREAD_BYTES: '1', LIVE_PARSE_BYTES: '0' });
  const inPlace = await startTestApp(t, { HELPER_THREAD_BYTES: '0' });
  t.equal(inPlace.engine.helperThread, null);
  const bodies: [id: string, body: string][] = [
    ...payloadTextsOfEveryShape().map((text, i): [string, string] => [`shape-${i}`, text]),
    // A live match replaced rally by rally, and two shapes replacing each other.
    ...liveMatchUploads()
      .slice(0, 30)
      .map((text): [string, string] => ['live', text]),
    ['shape-0', payloadTextsOfEveryShape()[1]!],
    ['refused', ''],
    ['refused', '{"homeTeam": '],
    ['refused', `{"deep": ${'['.repeat(70)}${']'.repeat(70)}}`],
    ['refused', '{"__proto__": {"polluted": true}}'],
    ['refused', '[{"id": "refused"}]'],
    ['refused', JSON.stringify({ id: { not: 'a string' }, homeTeam: { name: 'A' } })],
    ['refused', JSON.stringify({ id: 'other-id', homeTeam: { name: 'A' } })],
    ['refused', JSON.stringify({ clubId: ['x'], teamId: 1 })],
  ];
  for (const [id, body] of bodies) {
    const put = (app: TestApp) => app.app.inject({ method: 'PUT', url: `/api/matches/${id}`, headers: json, payload: body });
    t.same(answerOf(await put(onThread)), answerOf(await put(inPlace)), `${id}: ${body.slice(0, 40)}`);
  }
  for (const id of new Set(bodies.map(([id]) => id).filter((id) => id !== 'refused')))
    t.same(await readersOf(onThread, id), await readersOf(inPlace, id), `readers of ${id}`);
  const answered = onThread.engine.helperThread?.answered();
  t.ok(answered !== undefined && answered.readBody >= bodies.length - 1, 'every body but the empty one was read on the thread');
  t.ok(
    answered !== undefined && answered.versionDiff >= 30 && answered.diffBasis >= 2 && answered.teamNames > 30,
    "versions' diffs, first bases and team names were made there",
  );
});

t.test("large first versions have their history basis made at once, on the thread from the request's parse: the same documents a rebuild makes", async (t) => {
  const app = await startTestApp(t);
  const filler = 'x'.repeat(BASIS_AT_ONCE_CHARS);
  const versions = [
    ['big', JSON.stringify({ homeTeam: { name: 'A', setsWon: 1 }, awayTeam: { name: 'B', setsWon: 0 }, note: filler, actions: [{ id: 1, set: 1 }] })],
    [
      'big',
      JSON.stringify({
        homeTeam: { name: 'A', setsWon: 2 },
        awayTeam: { name: 'B', setsWon: 0 },
        note: filler,
        actions: [
          { id: 1, set: 1 },
          { id: 2, set: 2 },
        ],
      }),
    ],
    ['small-then-big', JSON.stringify({ homeTeam: { name: 'C' } })],
    ['small-then-big', JSON.stringify({ homeTeam: { name: 'C' }, note: filler })],
    ['big-alone', JSON.stringify({ homeTeam: { name: 'D' }, note: filler })],
  ];
  for (const [id, body] of versions)
    t.equal((await app.app.inject({ method: 'PUT', url: `/api/matches/${id}`, headers: json, payload: body })).statusCode, 200);
  t.ok((app.engine.helperThread?.answered().diffBasis ?? 0) >= 2, 'the first versions of big and big-alone had their bases made on the thread');
  const [, second] = ((await app.app.inject({ url: '/api/matches/big/history' })).json() as { entries: { diff: unknown }[] }).entries;
  t.match(second?.diff, { summary: 'score 1:0 → 2:0; +1 action' }, 'the next version is compared with it');
  const scratchDir = tempDataDir(t);
  const history = allProjections.find((p) => p.name === MATCH_HISTORY)!;
  const scratch = openSqliteReadModel(join(scratchDir, 'history.sqlite'));
  t.teardown(() => scratch.close());
  const { differences } = await verifyProjection(history, app.engine.eventStore, app.engine.readModel, scratch);
  t.same(differences, [], 'live and rebuilt agree');
});

t.test('a body the helper thread cannot read is read in place', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  registerErrorHandling(app);
  let asked = 0;
  const failing = {
    minBytes: 10,
    read: async () => {
      asked += 1;
      throw new Error('the helper thread exited with code 1');
    },
  };
  registerJsonBody(app, 1024 * 1024, { maxDepth: 64, maxValues: 1000 }, failing);
  app.post('/echo', async (request) => ({ parsed: request.rawJson?.parsed, body: request.body }));
  const large = { homeTeam: { name: 'Home' }, note: 'x'.repeat(100) };
  const res = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: JSON.stringify(large) });
  t.same(res.json(), { parsed: true, body: large });
  const refused = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: '{"note": "unfinished' });
  t.equal(refused.statusCode, 400);
  t.match(refused.json().message, /not valid JSON/);
  const small = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: '{}' });
  t.same(small.json(), { parsed: true, body: {} }, 'a body under minBytes is not sent');
  t.equal(asked, 2);
});
