import fc from 'fast-check';
import t from 'tap';
import { type ReparseBasis, type ReparseLimits, reparse } from '../../src/domain/jsonReparse.js';
import { jsonShapeProblem } from '../../src/http/api/jsonShape.js';
import { applyEdit, liveSequences, sameJson, structuredEdit, textEdit } from '../helpers/jsonEdits.js';
import { numRuns } from '../helpers/properties.js';

/**
 * The incremental parse (src/domain/jsonReparse.ts) against the full one, JSON.parse and the
 * shape check, on the same texts (issue 60). Where the incremental parse answers, the full path
 * takes the text and makes the same value (same keys in the same order, same numbers); where
 * the full path refuses, the incremental parse gives no answer. `REPARSE_CASES` sets how many
 * cases of random edits run (`npm run test:reparse` runs a million), `REPARSE_STRUCTURED_CASES`
 * how many of structured edits.
 */

const LIMITS: ReparseLimits = { maxDepth: 64, maxValues: 100_000 };
const CASES = Number(process.env.REPARSE_CASES ?? 0) || numRuns(3000);
const STRUCTURED_CASES = Number(process.env.REPARSE_STRUCTURED_CASES ?? 0) || numRuns(1000);

/** The full path's answer: the value, or that it refuses the text. */
function fullPath(text: string, limits: ReparseLimits): { value: unknown } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return jsonShapeProblem(value, limits) === null ? { value } : null;
}

/** Keys plus items, as the shape bounds count them. */
function countValues(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value);
  return children.length + children.reduce<number>((sum, child) => sum + countValues(child), 0);
}

/** Throws unless the incremental answer (if any) is the full path's; returns the basis to go on from. */
function agree(basis: ReparseBasis, text: string, limits: ReparseLimits): ReparseBasis | null {
  const incremental = reparse(basis, text, limits);
  const full = fullPath(text, limits);
  if (incremental === null) return full === null ? null : { text, value: full.value, index: null };
  if (full === null) throw new Error(`the incremental parse took a text the full path refuses: ${JSON.stringify(text.slice(0, 300))}`);
  if (!sameJson(incremental.value, full.value)) throw new Error('the incremental parse made another value');
  const index = incremental.basis.index!;
  if (index.values !== countValues(full.value)) throw new Error(`counted ${index.values} values, the full value holds ${countValues(full.value)}`);
  return incremental.basis;
}

t.test('every upload of a live volleyball and a live basketball match is parsed incrementally, to the full parse’s value', async (t) => {
  for (const sequence of liveSequences()) {
    let basis: ReparseBasis = { text: sequence[0]!, value: JSON.parse(sequence[0]!), index: null };
    let incremental = 0;
    let same = 0;
    for (const text of sequence.slice(1)) {
      const answered = reparse(basis, text, LIMITS);
      if (answered !== null) incremental += 1;
      if (answered !== null && sameJson(answered.value, JSON.parse(text))) same += 1;
      basis = answered?.basis ?? { text, value: JSON.parse(text), index: null };
    }
    t.same(
      { incremental, same },
      { incremental: sequence.length - 1, same: sequence.length - 1 },
      `all ${sequence.length - 1} re-uploads incremental, each the same value`,
    );
  }
});

t.test('random edits of live uploads at random offsets: the incremental answer is the full path’s, or there is none', async (t) => {
  const sequences = liveSequences();
  const versions = sequences.flat();
  // Parsed once: a case starts from one of them (nothing alters a parsed value).
  const parsed = versions.map((text) => JSON.parse(text) as unknown);
  let answered = 0;
  let checked = 0;
  fc.assert(
    fc.property(fc.nat(versions.length - 1), fc.array(textEdit, { minLength: 1, maxLength: 4 }), fc.nat(400), fc.nat(200_000), (pick, edits, depth, values) => {
      const limits = { maxDepth: 4 + (depth % 60), maxValues: 50 + values };
      const start = versions[pick]!;
      if (jsonShapeProblem(parsed[pick], limits) !== null) return true;
      let basis: ReparseBasis | null = { text: start, value: parsed[pick], index: null };
      let text = start;
      for (const edit of edits) {
        text = applyEdit(text, edit);
        checked += 1;
        const next: ReparseBasis | null = agree(basis, text, limits);
        if (next !== null && next.index !== null) answered += 1;
        basis = next ?? basis;
      }
      return true;
    }),
    { numRuns: CASES },
  );
  t.pass(`${checked} edited texts checked, ${answered} answered incrementally`);
});

t.test('structured edits (values replaced, items and members added, removed or given twice): the same answers', async (t) => {
  const versions = liveSequences().flat();
  let answered = 0;
  fc.assert(
    fc.property(
      fc.nat(versions.length - 1),
      fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(10_000)), { minLength: 1, maxLength: 5 }),
      (pick, edits) => {
        let text = versions[pick]!;
        let basis: ReparseBasis = { text, value: JSON.parse(text), index: null };
        for (const [choice, salt] of edits) {
          text = structuredEdit(text, choice, salt);
          const next = agree(basis, text, LIMITS);
          if (next?.index) answered += 1;
          basis = next ?? { text, value: JSON.parse(text), index: null };
        }
        return true;
      },
    ),
    { numRuns: STRUCTURED_CASES },
  );
  t.ok(answered > 0, `${answered} structured edits answered incrementally`);
});
