import fc from 'fast-check';
import t from 'tap';
import { DIFF_BASIS_FIELDS, DIFF_LIST_MAX, describeDiff, diffBases, diffBasis, diffMatch, EDITED_NAMED, type MatchDiff } from '../../src/domain/matchDiff.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { holds, numRuns } from '../helpers/properties.js';
import { diffMatch as diffMatchBefore } from './matchDiffBefore.js';

type Payload = Record<string, unknown>;

/** A diff without what the diff before (./matchDiffBefore.ts) did not give: fields' values, edited actions' places. */
const counted = (diff: MatchDiff): MatchDiff => {
  const { edited: _places, ...actions } = diff.actions;
  return { ...diff, actions, fields: diff.fields.map(({ field, change }) => ({ field, change })) };
};

const player = fc.record(
  {
    playerId: fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'p6'),
    name: fc.constantFrom('Ana', 'Bea', 'Cleo', 'Dora', 'Eva'),
    number: fc.integer({ min: 1, max: 12 }),
    team: fc.constantFrom('home', 'away'),
    stats: fc.dictionary(fc.constantFrom('kills', 'aces', 'digs', 'madeUp'), fc.integer({ min: 0, max: 9 }), { maxKeys: 4 }),
  },
  { requiredKeys: ['team'] },
);
const action = fc.record(
  { id: fc.integer({ min: 1, max: 12 }), seq: fc.integer({ min: 1, max: 12 }), type: fc.constantFrom('point', 'ace', 'error') },
  { requiredKeys: ['type'] },
);
// Field names outside the ones the diff describes on their own; a few, so two versions share some.
const otherField = fc.constantFrom('note', 'venue', 'status', 'a', 'b', 'Z', 'é', 'f1', 'f10', 'f2');
const payload: fc.Arbitrary<Payload> = fc
  .record({
    homeTeam: fc.record({ name: fc.constantFrom('Lions', 'Tigers'), setsWon: fc.nat(3) }, { requiredKeys: [] }),
    awayTeam: fc.record({ name: fc.constantFrom('Bears', 'Wolves'), setsWon: fc.nat(3) }, { requiredKeys: [] }),
    // Repeated set numbers too: a label's first line is the one compared.
    sets: fc.array(fc.record({ set: fc.integer({ min: 1, max: 4 }), home: fc.nat(30), away: fc.nat(30) }), { maxLength: 5 }),
    players: fc.array(player, { maxLength: 8 }),
    actions: fc.array(action, { maxLength: 8 }),
    others: fc.dictionary(otherField, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
  })
  .map(({ others, ...described }) => ({ ...others, ...described }));

/** A next version: per field kept, taken from `alt`, or dropped; its fields maybe in another order. */
const nextVersion = fc
  .record({ before: payload, alt: payload, choices: fc.array(fc.nat(3), { minLength: 16, maxLength: 16 }), reversed: fc.boolean() })
  .map(({ before, alt, choices, reversed }) => {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(alt)])];
    const after: Payload = {};
    for (const [i, key] of (reversed ? keys.reverse() : keys).entries()) {
      const choice = choices[i % choices.length]!;
      const value = choice === 1 || !(key in before) ? alt[key] : before[key];
      if (choice !== 2 && value !== undefined) after[key] = value;
    }
    return { before, after };
  });

t.test('on ordinary matches the bounded diff is the diff as it was: same lists, same order, same counts', async (t) => {
  fc.assert(
    fc.property(nextVersion, ({ before, after }) => {
      holds.same(counted(diffMatch(before, after)), diffMatchBefore(before, after));
    }),
    { numRuns: numRuns(2_000) },
  );
  t.pass(`${numRuns(2_000)} pairs of versions`);
});

t.test('any two JSON values give the same diff as before, never an exception', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (before, after) => {
      holds.same(counted(diffMatch(before, after)), diffMatchBefore(before, after));
    }),
    { numRuns: numRuns(500) },
  );
  t.pass(`${numRuns(500)} pairs of values`);
});

/** Every top-level field change between two versions, found the plain way (for wide payloads). */
function allFieldChanges(before: Payload, after: Payload): Map<string, MatchDiff['fields'][number]['change']> {
  const changes = new Map<string, MatchDiff['fields'][number]['change']>();
  for (const field of Object.keys(after)) {
    if (!(field in before)) changes.set(field, 'added');
    else if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes.set(field, 'changed');
  }
  for (const field of Object.keys(before)) if (!(field in after)) changes.set(field, 'removed');
  return changes;
}

/** A payload of fields f0…f(width − 1) set to `value` of their index, but where it is undefined. */
const wide = (width: number, value: (i: number) => unknown): Payload => {
  const out: Payload = {};
  for (let i = 0; i < width; i += 1) {
    const v = value(i);
    if (v !== undefined) out[`f${i}`] = v;
  }
  return out;
};

t.test('a wide payload: DIFF_LIST_MAX changes listed, sorted, each a real change, and every other change counted', async (t) => {
  // 5,000 fields: 900 changed, 250 removed, 250 added (present only in the new version).
  const before = wide(4_750, (i) => (i >= 4_500 ? 'gone' : i));
  const after = wide(5_000, (i) => (i >= 4_500 && i < 4_750 ? undefined : i % 5 === 0 ? i + 0.5 : i));
  const diff = diffMatch(before, after);
  const changes = allFieldChanges(before, after);
  t.equal(changes.size, 900 + 250 + 250);
  t.equal(diff.fields.length, DIFF_LIST_MAX);
  t.equal(diff.omitted, changes.size - DIFF_LIST_MAX, 'the rest counted, none lost and none twice');
  t.same(
    diff.fields.map((f) => f.field),
    diff.fields.map((f) => f.field).sort(),
    'listed by name',
  );
  for (const { field, change } of diff.fields) t.equal(changes.get(field), change, `${field} ${change}`);
  t.equal(diff.omitted, diffMatchBefore(before, after).omitted, 'the same count as the diff before');

  const reordered = Object.fromEntries(Object.entries(after).reverse());
  const again = diffMatch(before, reordered);
  t.equal(again.omitted, changes.size - DIFF_LIST_MAX, 'fields in another order: the same count');
  for (const { field, change } of again.fields) t.equal(changes.get(field), change);

  t.same(diffMatch(before, before), diffMatchBefore(before, before), 'no change at all: nothing listed');
  t.equal(diffMatch(before, before).omitted, 0);
});

t.test('wide payloads of any mix of changes: counts as the diff before gave them', async () => {
  const version = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 600 }), fc.nat(2)), { maxLength: 400 })
    .map((cells) => Object.fromEntries(cells.map(([i, v]) => [`f${i}`, v])));
  fc.assert(
    fc.property(version, version, (before, after) => {
      const diff = diffMatch(before, after);
      const was = diffMatchBefore(before, after);
      const changes = allFieldChanges(before, after);
      holds.equal(diff.omitted, was.omitted);
      holds.equal(diff.fields.length, Math.min(changes.size, DIFF_LIST_MAX));
      if (changes.size <= DIFF_LIST_MAX) holds.same(counted(diff).fields, was.fields);
      for (const { field, change } of diff.fields) holds.equal(changes.get(field), change, `${field} ${change}`);
    }),
    { numRuns: numRuns(200) },
  );
});

t.test('many unnamed players renamed, and many periods: paired and compared as before', async (t) => {
  const roster = (names: string, teams: (i: number) => string) =>
    Array.from({ length: 3_000 }, (_, i) => ({ name: `${names}${i}`, number: (i % 99) + 1, team: teams(i), stats: { kills: i % 7 } }));
  const before = { players: roster('a', (i) => (i % 2 ? 'home' : 'away')), sets: Array.from({ length: 3_000 }, (_, i) => ({ set: i + 1, home: i, away: 0 })) };
  const after = { players: roster('b', () => 'away'), sets: Array.from({ length: 3_000 }, (_, i) => ({ set: i + 1, home: i % 3 ? i : -1, away: 0 })) };
  t.same(counted(diffMatch(before, after)), diffMatchBefore(before, after));
  t.same(counted(diffBases(diffBasis(after), diffBasis(before))), diffMatchBefore(after, before), 'and the other way round');
});

/** A next version that grows the actions (a rally), edits or drops some, or keeps them; other fields as nextVersion. */
const grownVersion = fc
  .record({ pair: nextVersion, more: fc.array(action, { maxLength: 4 }), edit: fc.option(fc.tuple(fc.nat(7), action)), drop: fc.boolean() })
  .map(({ pair: { before, after }, more, edit, drop }) => {
    const old = Array.isArray(before.actions) ? before.actions : [];
    const actions = [...(drop ? old.slice(1) : old), ...more];
    if (edit !== null && actions.length > 0) actions[edit[0] % actions.length] = edit[1];
    return { before, after: { ...after, actions } };
  });

t.test('a basis made with the previous one is the basis made from scratch, so the diff is too', async (t) => {
  fc.assert(
    fc.property(grownVersion, ({ before, after }) => {
      const previous = diffBasis(before);
      const next = diffBasis(after, undefined, previous);
      holds.same(next, diffBasis(after));
      holds.same(counted(diffBases(previous, next)), diffMatchBefore(before, after));
    }),
    { numRuns: numRuns(2_000) },
  );
  t.pass(`${numRuns(2_000)} grown, edited or shortened versions`);
});

t.test(
  'grown action lists, a few or many new (looked up one by one or counted in a map), keys repeated: the diffs as before, each basis from the one before',
  async (t) => {
    // Few keys among many actions, so new ones repeat old ones and each other; some without id or seq (keyed by position).
    const keyed = fc.oneof(
      { arbitrary: fc.record({ id: fc.integer({ min: 1, max: 40 }), type: fc.constantFrom('point', 'ace') }), weight: 4 },
      { arbitrary: fc.record({ seq: fc.integer({ min: 1, max: 40 }) }), weight: 1 },
      { arbitrary: fc.constantFrom('x', 1, null), weight: 1 },
    );
    const grown = fc.record({ first: fc.array(keyed, { maxLength: 120 }), more: fc.array(fc.array(keyed, { maxLength: 90 }), { minLength: 1, maxLength: 4 }) });
    fc.assert(
      fc.property(grown, ({ first, more }) => {
        let before: Payload = { actions: first };
        let previous = diffBasis(before);
        for (const tail of more) {
          const after: Payload = { actions: [...(before.actions as unknown[]), ...tail] };
          const next = diffBasis(after, undefined, previous);
          holds.same(next, diffBasis(after), 'the basis from the one before is the one from scratch');
          holds.same(counted(diffBases(previous, next)), diffMatchBefore(before, after));
          before = after;
          previous = next;
        }
      }),
      { numRuns: numRuns(1_000) },
    );
    t.pass(`${numRuns(1_000)} chains of grown lists`);
  },
);

t.test('a live match: the basis of each upload, made from the one before, is the one made from scratch', async (t) => {
  const uploads = liveMatchUploads().map((text) => JSON.parse(text) as Payload);
  let previous = diffBasis(uploads[0]);
  for (const [i, upload] of uploads.entries()) {
    if (i === 0) continue;
    const next = diffBasis(upload, undefined, previous);
    const scratch = diffBasis(upload);
    if (JSON.stringify(next) !== JSON.stringify(scratch)) t.fail(`upload ${i}: the bases differ`);
    const diff = diffBases(previous, next);
    if (JSON.stringify(counted(diff)) !== JSON.stringify(diffMatchBefore(uploads[i - 1], upload))) t.fail(`upload ${i}: the diffs differ`);
    previous = next;
  }
  t.pass(`${uploads.length} uploads`);
});

t.test('a payload wider than DIFF_BASIS_FIELDS: its basis names that many fields and digests the rest, whose changes still count', async (t) => {
  const wide = (changed: (i: number) => boolean) =>
    Object.fromEntries(Array.from({ length: DIFF_BASIS_FIELDS + 5_000 }, (_, i) => [`k${i}`, changed(i) ? 1 : 0]));
  const before = wide(() => false);
  const basis = diffBasis(before);
  t.equal(basis.fields.length, DIFF_BASIS_FIELDS);
  t.ok(basis.rest !== null && basis.rest.length < 1_000, 'the rest in under 1,000 characters');
  t.equal(diffMatch(before, before).omitted, 0, 'unchanged: nothing counted');
  const oneInRest = diffMatch(
    before,
    wide((i) => i === DIFF_BASIS_FIELDS + 7),
  );
  t.same([oneInRest.fields, oneInRest.omitted], [[], 1], 'one field changed past them: one change counted');
  const many = diffMatch(
    before,
    wide((i) => i % 2 === 0),
  );
  t.equal(many.fields.length, DIFF_LIST_MAX);
  t.ok(many.omitted >= DIFF_BASIS_FIELDS / 2 - DIFF_LIST_MAX + 1, 'changes among the named fields counted one by one, the rest at least one');
  const narrow = diffMatch(
    wide(() => false),
    Object.fromEntries(Object.entries(before).slice(0, DIFF_BASIS_FIELDS)),
  );
  t.ok(narrow.omitted >= 1, 'fields past them removed: counted');
});

t.test('actions nested too deep for JSON.stringify (stored before MAX_JSON_DEPTH): fingerprinted one by one, never compared by text', async (t) => {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 20_000; i += 1) deep = [deep];
  const before = { actions: [{ seq: 1 }, deep] };
  const after = { actions: [{ seq: 1 }, deep, { seq: 3 }] };
  const previous = diffBasis(before);
  t.same(previous.actionsText, { chars: -1, digest: '' });
  const next = diffBasis(after, undefined, previous);
  t.same(next, diffBasis(after));
  t.match(diffBases(previous, next).actions, { before: 2, after: 3, added: 1, removed: 0, changed: 0 });
});

t.test('a changed scalar field reads from → to; a long text or an object only "changed"; added and removed say their value', async (t) => {
  const long = 'x'.repeat(81);
  const diff = diffMatch(
    { status: 'live', venue: 'Hall 1', attendance: 120, note: long, meta: { a: 1 }, referee: 'K. Weber' },
    { status: 'final', venue: 'Hall 1', attendance: null, note: `${long}y`, meta: { a: 2 }, overtime: true },
  );
  t.same(diff.fields, [
    { field: 'attendance', change: 'changed', from: 120, to: null },
    { field: 'meta', change: 'changed' },
    { field: 'note', change: 'changed' },
    { field: 'overtime', change: 'added', to: true },
    { field: 'referee', change: 'removed', from: 'K. Weber' },
    { field: 'status', change: 'changed', from: 'live', to: 'final' },
  ]);
  t.equal(
    describeDiff(diff),
    'attendance 120 → null; meta changed; note changed; overtime added: true; referee removed (was “K. Weber”); status “live” → “final”',
  );
});

t.test('edited actions are named by their place in the new version, at most EDITED_NAMED, the rest counted', async (t) => {
  const rallies = (n: number) => Array.from({ length: n }, (_, i) => ({ seq: i + 1, type: 'point', team: i % 2 ? 'away' : 'home' }));
  const before = { actions: rallies(12) };
  const edited = { actions: rallies(12).map((a, i) => (i === 3 || i === 7 ? { ...a, team: a.team === 'home' ? 'away' : 'home' } : a)) };
  const diff = diffMatch(before, edited);
  t.match(diff.actions, { added: 0, removed: 0, changed: 2, edited: [3, 7] });
  t.equal(describeDiff(diff), '2 actions edited (actions[3], actions[7])');

  // A live match's next upload: one rally more and an old one corrected, from the stored basis.
  const next = { actions: [...edited.actions.slice(0, 5), { ...edited.actions[5]!, type: 'ace' }, ...edited.actions.slice(6), ...rallies(13).slice(12)] };
  const live = diffBases(diffBasis(edited), diffBasis(next, undefined, diffBasis(edited)));
  t.equal(describeDiff(live), '+1 action; 1 action edited (actions[5])');

  const many = { actions: rallies(12).map((a) => ({ ...a, type: 'error' })) };
  const all = diffMatch(before, many);
  t.same(all.actions.edited, [0, 1, 2, 3, 4], `the first ${EDITED_NAMED}`);
  t.equal(describeDiff(all), '12 actions edited (actions[0], actions[1], actions[2], actions[3], actions[4] and 7 more)');
  t.notOk('edited' in diffMatch(before, { actions: rallies(14) }).actions, 'none edited: no list');
});
