import fc from 'fast-check';
import t from 'tap';
import { type DiffBasis, diffBases, diffBasis, type MatchDiff } from '../../src/domain/matchDiff.js';
import { diffBasisOfText, digestedTexts } from '../../src/domain/matchDiffText.js';
import { summarizeMatch } from '../../src/domain/matchPayload.js';
import { adversarialCorpus } from '../fixtures/adversarial.mjs';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { holds, numRuns } from '../helpers/properties.js';

/**
 * A version's basis as the projection makes it from the text, or (`parsed`) from the parsed
 * payload, as older releases and the write path before session 24 made it.
 */
type Made = { text: string; parsed: boolean };

/** The diffs of consecutive versions as the parse-based path gives them: each payload parsed, its basis made from the object. */
const parsedDiffs = (texts: string[]): MatchDiff[] => {
  const bases = texts.map((text) => diffBasis(JSON.parse(text)));
  return bases.slice(1).map((basis, i) => diffBases(bases[i]!, basis));
};

/**
 * The digested actions' texts every test shares (as the projection does), small enough that
 * some are let go: a version is made with them, or without them every third one.
 */
const digested = digestedTexts(200_000);

/** What a check needs of tap's `t`: a property passes `holds`, whose `same` throws so that fast-check shrinks the case. */
type Same = { same(found: unknown, wanted: unknown, message: string): unknown };

/** The same from the texts, each basis made from the one before; and each basis, but its actions' digest, as the object's. */
function textDiffs(t: Same, versions: Made[]): MatchDiff[] {
  let previous: DiffBasis | null = null;
  const diffs: MatchDiff[] = [];
  for (const [i, { text, parsed }] of versions.entries()) {
    const body = parsed ? JSON.parse(text) : undefined;
    const next: DiffBasis = parsed ? diffBasis(body, summarizeMatch(body), previous) : diffBasisOfText(text, previous, i % 3 === 2 ? undefined : digested);
    if (!parsed) {
      // As the write path makes it: the actions from the text, the rest from the request's parse.
      const request = JSON.parse(text) as unknown;
      const withParse = diffBasisOfText(text, previous, digested, { body: request, summary: () => summarizeMatch(request) });
      if (JSON.stringify(withParse) !== JSON.stringify(next)) t.same(withParse, next, "the basis made with the request's parse is the one from the text alone");
    }
    const { actionsText: _made, ...rest } = next;
    const { actionsText: _scratch, ...expected } = diffBasis(JSON.parse(text));
    if (JSON.stringify(rest) !== JSON.stringify(expected)) t.same(rest, expected, 'the basis made from the text is the one made from the parsed payload');
    if (previous !== null) diffs.push(diffBases(previous, next));
    previous = next;
  }
  return diffs;
}

const sameDiffs = (t: Same, versions: Made[]) => {
  const want = parsedDiffs(versions.map((v) => v.text));
  const got = textDiffs(t, versions);
  if (JSON.stringify(got) !== JSON.stringify(want)) t.same(got, want, 'the diffs from the texts are those from the parsed payloads');
};

/** A small deterministic generator: the same seed renders the same value the same way. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SPACES = ['', ' ', '\n  ', '\t', '\r\n'];

/**
 * A JSON text of `value` in a style drawn from `seed`: spacing, \u escapes, numbers written as
 * 1.0 or 1e0, and members preceded by a duplicate of their name (JSON.parse keeps the last).
 * An array's elements are each rendered from the seed and their index, so versions rendered
 * with one seed share the text of the actions they share.
 */
function render(value: unknown, seed: number): string {
  const next = random(seed);
  const space = () => SPACES[Math.floor(next() * SPACES.length)]!;
  const str = (s: string) => {
    let out = '"';
    for (const char of s) {
      const code = char.charCodeAt(0);
      if (char.length > 1 || (code >= 0xd800 && code <= 0xdfff) || next() < 0.2) {
        for (let i = 0; i < char.length; i += 1) {
          const hex = char.charCodeAt(i).toString(16).padStart(4, '0');
          out += `\\u${next() < 0.5 ? hex : hex.toUpperCase()}`;
        }
      } else out += JSON.stringify(char).slice(1, -1);
    }
    return `${out}"`;
  };
  const go = (v: unknown): string => {
    if (typeof v === 'string') return str(v);
    if (typeof v === 'number') {
      const text = JSON.stringify(v);
      const r = next();
      const whole = /^-?\d+$/.test(text);
      return whole && r < 0.2 ? `${text}.0` : whole && r < 0.3 ? `${text}e0` : text;
    }
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) {
      // Each element and the space before it drawn from the seed and its index alone.
      const items = v.map((item, i) => {
        const around = random(seed * 17 + i);
        const gap = () => SPACES[Math.floor(around() * SPACES.length)]!;
        return `${i === 0 ? '' : `${gap()},`}${gap()}${render(item, seed * 31 + i + 1)}`;
      });
      return `[${items.join('')}${space()}]`;
    }
    const members = Object.entries(v).map(([key, member]) => {
      const duplicate = next() < 0.1 ? `${str(key)}:${go(next() < 0.5 ? [next()] : { shadowed: true })},${space()}` : '';
      return `${duplicate}${str(key)}${space()}:${space()}${go(member)}`;
    });
    return `{${space()}${members.join(`,${space()}`)}${space()}}`;
  };
  return go(value);
}

type Payload = Record<string, unknown>;
const player = fc.record(
  {
    playerId: fc.constantFrom('p1', 'p2', 'p3', 'p4'),
    name: fc.constantFrom('Ana', 'Bea', 'Zoë', '李'),
    number: fc.integer({ min: 1, max: 12 }),
    team: fc.constantFrom('home', 'away'),
    stats: fc.dictionary(fc.constantFrom('kills', 'aces', 'digs'), fc.integer({ min: 0, max: 9 }), { maxKeys: 3 }),
  },
  { requiredKeys: ['team'] },
);
const action = fc.oneof(
  fc.record(
    { id: fc.integer({ min: 1, max: 12 }), seq: fc.integer({ min: 1, max: 12 }), type: fc.constantFrom('point', 'ace', 'é"\\') },
    { requiredKeys: ['type'] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const otherField = fc.constantFrom('note', 'venue', 'status', 'a', '0', '7', '4294967295', '__proto__', 'actionz', 'é');
const payload: fc.Arbitrary<Payload> = fc
  .record({
    homeTeam: fc.record({ name: fc.constantFrom('Lions', 'Tigers'), setsWon: fc.nat(3) }, { requiredKeys: [] }),
    awayTeam: fc.record({ name: fc.constantFrom('Bears', 'Wolves'), setsWon: fc.nat(3) }, { requiredKeys: [] }),
    sets: fc.array(fc.record({ set: fc.integer({ min: 1, max: 4 }), home: fc.nat(30), away: fc.nat(30) }), { maxLength: 4 }),
    players: fc.array(player, { maxLength: 6 }),
    actions: fc.array(action, { maxLength: 8 }),
    others: fc.dictionary(otherField, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
  })
  .map(({ others, ...described }) => {
    // JSON.parse makes "__proto__" an own member: so does this.
    const out: Payload = {};
    for (const [key, value] of Object.entries({ ...others, ...described }))
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    return out;
  });

/** Mostly undefined: a version usually grows the one before. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary, weight });
/** A next version: actions appended, one edited, the first removed; a field or the score changed; or something else entirely. */
const edit = fc.record({
  more: fc.array(action, { minLength: 1, maxLength: 3 }),
  change: sometimes(fc.tuple(fc.nat(20), action), 2),
  drop: fc.nat(5).map((n) => n === 0),
  field: sometimes(fc.tuple(otherField, fc.jsonValue({ maxDepth: 2 })), 4),
  score: sometimes(fc.nat(30), 4),
  other: sometimes(fc.oneof(payload, fc.jsonValue({ maxDepth: 3 })), 1),
  seed: fc.constantFrom(1, 1, 1, 2, 3),
  parsed: fc.boolean(),
});

function applyEdit(before: unknown, e: Edit): unknown {
  if (e.other !== undefined) return e.other;
  if (typeof before !== 'object' || before === null || Array.isArray(before)) return before;
  const after: Payload = { ...(before as Payload) };
  const old = Array.isArray(after.actions) ? after.actions : [];
  const actions = [...(e.drop ? old.slice(1) : old), ...e.more];
  if (e.change !== undefined && actions.length > 0) actions[e.change[0] % actions.length] = e.change[1];
  after.actions = actions;
  if (e.field !== undefined) Object.defineProperty(after, e.field[0], { value: e.field[1], enumerable: true, writable: true, configurable: true });
  if (e.score !== undefined) after.sets = [{ set: 1, home: e.score, away: 3 }];
  return after;
}
type Edit = {
  more: unknown[];
  change: [number, unknown] | undefined;
  drop: boolean;
  field: [string, unknown] | undefined;
  score: number | undefined;
  other: unknown;
  seed: number;
  parsed: boolean;
};

t.test('a basis made from the text, from the one before, gives the diffs the parsed payloads give: spacing, escapes, duplicates, any JSON', async (t) => {
  fc.assert(
    fc.property(payload, fc.constantFrom(1, 2, 3), fc.array(edit, { minLength: 1, maxLength: 6 }), (first, seed, edits) => {
      const versions: Made[] = [{ text: render(first, seed), parsed: false }];
      let value: unknown = first;
      for (const e of edits) {
        value = applyEdit(value, e);
        versions.push({ text: render(value, e.seed), parsed: e.parsed });
      }
      sameDiffs(holds, versions);
    }),
    { numRuns: numRuns(1_500) },
  );
  t.pass(`${numRuns(1_500)} sequences of versions`);
});

t.test('duplicate actions members: the last one is the list, whatever the others are', async (t) => {
  const texts = [
    '{"actions":[{"id":1}],"actions":[{"id":1},{"id":2}]}',
    '{"actions":[{"id":1},{"id":2}],"actions":{"id":3}}',
    '{"actions":{"id":3},"actions":[{"id":1},{"id":2},{"id":3}]}',
    '{"\\u0061ctions":[{"id":1},{"id":2},{"id":3},{"id":4}] , "actions" : [ {"id":1}, {"id":2} ,{"id":3},{"id":4}, 5 ] }',
    '{"actions":[{"id":1},{"id":2},{"id":3},{"id":4},50]}',
    '{"actions":[{"id":1},{"id":2},{"id":3},{"id":4},50.0,[]]}',
  ];
  sameDiffs(
    t,
    texts.map((text) => ({ text, parsed: false })),
  );
});

t.test('a number the previous text ended with, grown by a digit, is a changed action, not a kept one', async (t) => {
  const versions = [
    '{"actions":[1,2]}',
    '{"actions":[1,23]}',
    '{"actions":[1,23 ]}',
    '{"actions":[1,23,4]}',
    '{"actions":[1,23e1]}',
    '[1]',
    '{"actions":[1,23e1]}',
  ];
  sameDiffs(
    t,
    versions.map((text) => ({ text, parsed: false })),
  );
  const made = diffBasisOfText('{"actions":[1,2]}', null);
  t.match(diffBases(made, diffBasisOfText('{"actions":[1,23]}', made)).actions, { before: 2, after: 2, changed: 1 });
});

t.test('a live match, compact and pretty-printed, read from the text or parsed by the request: the same diffs', async (t) => {
  const uploads = liveMatchUploads();
  const pretty = uploads.map((text) => JSON.stringify(JSON.parse(text), null, 2));
  sameDiffs(
    t,
    uploads.map((text, i) => ({ text, parsed: i % 3 === 0 })),
  );
  sameDiffs(
    t,
    pretty.map((text) => ({ text, parsed: false })),
  );
  // The formatting changes half way: the actions are made again from the text, once.
  sameDiffs(
    t,
    uploads.map((text, i) => ({ text: i < 60 ? text : pretty[i]!, parsed: false })),
  );
  t.pass(`${uploads.length} uploads, three ways`);
});

t.test('a basis made from the parsed payload (an older release) is a previous basis like any other', async (t) => {
  const uploads = liveMatchUploads().slice(0, 30);
  let previous = diffBasis(JSON.parse(uploads[0]!));
  for (const [i, text] of uploads.entries()) {
    if (i === 0) continue;
    const next = diffBasisOfText(text, previous);
    t.same(diffBases(previous, next), diffBases(diffBasis(JSON.parse(uploads[i - 1]!)), diffBasis(JSON.parse(text))));
    previous = i % 2 === 0 ? next : diffBasis(JSON.parse(text), undefined, previous);
  }
});

t.test('the adversarial corpus, each payload after the one before and after itself', async (t) => {
  const corpus = adversarialCorpus().map((entry) => entry.text);
  for (const [i, text] of corpus.entries()) {
    sameDiffs(t, [
      { text: corpus[(i + corpus.length - 1) % corpus.length]!, parsed: false },
      { text, parsed: false },
      { text, parsed: i % 2 === 0 },
    ]);
  }
  t.pass(`${corpus.length} payloads`);
});

t.test('deep nesting: at the upload limit, and past what JSON.stringify walks (stored before MAX_JSON_DEPTH)', async (t) => {
  const nested = (depth: number) => `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`;
  for (const depth of [63, 64, 20_000]) {
    sameDiffs(t, [
      { text: `{"actions":[{"seq":1},${nested(depth)}],"deep":${nested(depth)}}`, parsed: false },
      { text: `{"actions":[{"seq":1},${nested(depth)},{"seq":3}],"deep":${nested(depth)}}`, parsed: false },
      { text: `{"actions":[{"seq":1},${nested(depth)},{"seq":3}],"deep":${nested(depth - 1)}}`, parsed: false },
    ]);
  }
  t.pass('depths 63, 64 and 20,000');
});

t.test('not an object, or not text a parse would equal: no actions kept across', async (t) => {
  sameDiffs(
    t,
    ['[]', '"x"', '{"actions":[{"id":1}]}', '3', '{"actions":[{"id":1}]}', 'null', '{"actions":"[{\\"id\\":1}]"}', '{"actions":[{"id":1}]}'].map((text) => ({
      text,
      parsed: false,
    })),
  );
  // A lone surrogate reads as U+FFFD in UTF-8: such a text is never taken for another.
  const lone = diffBasisOfText('{"actions":["\ud800"]}', null);
  t.same(lone.actionsText, { chars: -1, digest: '' });
  const replacement = diffBasisOfText('{"actions":["\ufffd",1]}', lone);
  t.match(diffBases(lone, replacement).actions, { before: 1, after: 2, changed: 1, added: 1 });
});

t.test(
  'the digested texts kept: each basis the one made without them, digest included; a step made twice, or after its text was let go, the same',
  async (t) => {
    const uploads = liveMatchUploads();
    const kept = digestedTexts(150_000);
    let previous: DiffBasis | null = null;
    let mismatches = 0;
    for (const text of uploads) {
      const next = diffBasisOfText(text, previous, kept);
      const again = diffBasisOfText(text, previous, kept);
      const without = diffBasisOfText(text, previous);
      if (JSON.stringify(next) !== JSON.stringify(without) || JSON.stringify(again) !== JSON.stringify(without)) mismatches += 1;
      // Other matches' texts push this one's out now and then.
      if (text.length % 4 === 0) for (const other of uploads.slice(0, 3)) diffBasisOfText(`${other} `, null, kept);
      previous = next;
    }
    t.equal(mismatches, 0, `${uploads.length} uploads`);
    const tiny = digestedTexts(10);
    const first = diffBasisOfText(uploads[0]!, null, tiny);
    t.same(diffBasisOfText(uploads[1]!, first, tiny), diffBasisOfText(uploads[1]!, first), 'a text larger than the cache is digested as without it');
  },
);

t.test('a payload without an actions list, whose summary would read them (no sets, no score): the basis of its one parse', async (t) => {
  for (const text of ['{"k0":1,"k1":2}', '{"homeTeam":{"name":"A"},"awayTeam":{"name":"B"},"note":"x"}', '{"actions":{"not":"a list"},"k":1}']) {
    t.same(diffBasisOfText(text, null), diffBasis(JSON.parse(text)), text);
  }
});
