import t, { type Test } from 'tap';
import { type DiffBasis, diffBases } from '../../src/domain/matchDiff.js';
import { diffBasisOfText } from '../../src/domain/matchDiffText.js';
import type { BasisText } from '../../src/domain/storedBasis.js';
import { matchTeamNamesOfText } from '../../src/domain/matchPayload.js';
import { bodyStandIn, decodeBody, parseBody } from '../../src/http/api/jsonBodyText.js';
import { createHelperThread } from '../../src/runtime/helperThread.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { payloadTextsOfEveryShape } from '../helpers/fixtures.js';

const shape = { maxDepth: 64, maxValues: 300_000 };

/** A real helper thread for the test, ended with it; failures are collected. */
function helper(t: Test) {
  const failures: unknown[] = [];
  const thread = createHelperThread({ minBytes: 1, onFailure: (error) => failures.push(error) });
  t.teardown(() => thread.close());
  return { thread, failures };
}

/** What reading `body` in place gives, as the thread answers it. */
function readInPlace(body: Buffer) {
  const decoded = decodeBody(body);
  if ('problem' in decoded) return decoded;
  const parsed = parseBody(decoded.text, shape);
  return 'problem' in parsed ? parsed : { text: decoded.trimmed, standIn: bodyStandIn(parsed.value) };
}

t.test('a body read on the thread is answered as one read in place: its text and stand-in, or the same problem', async (t) => {
  const { thread, failures } = helper(t);
  const bodies = [
    ...payloadTextsOfEveryShape().map((text) => Buffer.from(`  ${text}\n`)),
    Buffer.from(''),
    Buffer.from([0x7b, 0xff, 0x7d]),
    Buffer.from('{"id": "a",'),
    Buffer.from(`${'['.repeat(70)}${']'.repeat(70)}`),
    Buffer.from('{"__proto__": {"polluted": true}}'),
    Buffer.from('{"constructor": {"prototype": {}}}'),
    Buffer.from(JSON.stringify({ id: { deep: [1, 2, 3] }, clubId: [1], teamId: 7, other: 'x' })),
    Buffer.from('[1, 2, 3]'),
    Buffer.from('"a string"'),
    Buffer.from('null'),
  ];
  for (const body of bodies) t.same(await thread.read(body, shape), readInPlace(body), body.subarray(0, 40).toString());
  t.same(failures, []);
});

t.test('the stand-in keeps what the schema checks, and empties what fails it whatever it holds', async (t) => {
  t.same(bodyStandIn({ id: 'm', clubId: 12, teamId: null, actions: [1, 2] }), { id: 'm', clubId: 12, teamId: null });
  t.same(bodyStandIn({ id: { a: 1 }, clubId: [1, 2] }), { id: {}, clubId: [] });
  t.same(bodyStandIn([{ id: 'm' }]), []);
  t.equal(bodyStandIn('text'), 'text');
  t.equal(bodyStandIn(null), null);
});

const textOf = (basis: DiffBasis) => JSON.stringify(basis) as BasisText;

t.test("a version's diff basis, diff and team names made on the thread equal those made in place", async (t) => {
  const { thread, failures } = helper(t);
  const texts = payloadTextsOfEveryShape();
  for (const [i, text] of texts.entries()) {
    const basis = diffBasisOfText(text, null);
    t.equal(await thread.diffBasis(text), textOf(basis), 'the basis, as its text');
    t.same(await thread.teamNames(text), matchTeamNamesOfText(text));
    // Against another shape's version: every kind of change.
    const previous = diffBasisOfText(texts[(i + 1) % texts.length] as string, null);
    const after = diffBasisOfText(text, previous);
    t.same(await thread.versionDiff(text, textOf(previous)), { diff: diffBases(previous, after), basis: textOf(after) });
  }
  // A live match, each version against the one before, once as read on the thread (the basis
  // then comes from that parse) and once without.
  let previous = diffBasisOfText(liveMatchUploads()[0] as string, null);
  for (const text of liveMatchUploads().slice(1, 40)) {
    const inPlace = { diff: diffBases(previous, diffBasisOfText(text, previous)), basis: textOf(diffBasisOfText(text, previous)) };
    await thread.read(Buffer.from(text), shape);
    t.same(await thread.versionDiff(text, textOf(previous)), inPlace);
    t.same(await thread.teamNames(text), matchTeamNamesOfText(text));
    t.same(await thread.versionDiff(text, textOf(previous)), inPlace, 'the same again, after another job');
    previous = diffBasisOfText(text, previous);
  }
  t.same(failures, []);
});

t.test('a job that throws on the thread is rejected with its message; the thread goes on', async (t) => {
  const { thread, failures } = helper(t);
  await t.rejects(thread.diffBasis('not JSON'), /not valid JSON|Unexpected token/);
  t.same(await thread.teamNames('{"homeTeam":{"name":"Home"}}'), { home: 'Home', away: null });
  t.same(failures, [], 'a job that throws is not a failure of the thread');
});

t.test('a thread that runs out of memory fails its jobs and is reported; the next job starts another', async (t) => {
  const failures: unknown[] = [];
  // A heap too small for the wide body (under the test's TypeScript loader, too small for much else).
  const thread = createHelperThread({
    minBytes: 1,
    onFailure: (error) => failures.push(error),
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
  });
  t.teardown(() => thread.close());
  const wide = Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 290_000 }, (_, i) => [`k${i}`, i % 7]))));
  await t.rejects(thread.read(wide, shape), { code: 'ERR_WORKER_OUT_OF_MEMORY' }, 'a body too large for its heap is not read there');
  t.equal(failures.length, 1, 'the failure is reported once');
  await t.rejects(thread.read(wide, shape), { code: 'ERR_WORKER_OUT_OF_MEMORY' }, 'the next job runs on a new thread, which fails alike');
  t.equal(failures.length, 2);
});

t.test('closing rejects the jobs in flight; the next job starts a thread again', async (t) => {
  const { thread, failures } = helper(t);
  const text = JSON.stringify({ homeTeam: { name: 'Home' }, wide: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])) });
  const inFlight = thread.diffBasis(text);
  await thread.close();
  await t.rejects(inFlight, /closed/);
  t.same(await thread.teamNames(text), { home: 'Home', away: null });
  t.same(failures, [], 'a close is not a failure');
});
