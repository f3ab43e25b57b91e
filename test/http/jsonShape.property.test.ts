import fc from 'fast-check';
import t from 'tap';
import { jsonShapeProblem, jsonTextFits } from '../../src/http/api/jsonShape.js';
import { holds, numRuns } from '../helpers/properties.js';

/** A JSON tree whose objects are lists of members, so that a text can repeat a name. */
type Tree = null | number | string | Tree[] | { members: [string, Tree][] };

const names = fc.constantFrom('a', 'b', '__proto__', 'constructor', 'prototype', 'x"y', 'construct', 'é');
const tree = fc.letrec<{ t: Tree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, 1, 'constructor', '"prototype":', '[', '{'),
    fc.array(tie('t'), { maxLength: 4 }),
    fc.record({ members: fc.array(fc.tuple(names, tie('t')), { maxLength: 4 }) }),
  ),
})).t;

/** A member name written plainly or with every character escaped (`\u005f\u005f…`), as JSON allows. */
const written = (name: string, escaped: boolean) =>
  escaped ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(name);

function text(value: Tree, escaped: boolean, space: string): string {
  if (Array.isArray(value)) return `[${space}${value.map((item) => text(item, escaped, space)).join(`,${space}`)}${space}]`;
  if (value !== null && typeof value === 'object') {
    const members = value.members.map(([name, member]) => `${written(name, escaped)}${space}:${space}${text(member, escaped, space)}`);
    return `{${space}${members.join(`,${space}`)}${space}}`;
  }
  return JSON.stringify(value);
}

const hasRepeatedName = (value: Tree): boolean =>
  Array.isArray(value)
    ? value.some(hasRepeatedName)
    : value !== null && typeof value === 'object'
      ? new Set(value.members.map(([name]) => name)).size < value.members.length || value.members.some(([, member]) => hasRepeatedName(member))
      : false;

t.test("the text's scan never passes what the parsed value's walk refuses, and agrees with it where no name repeats", async () => {
  fc.assert(
    fc.property(
      tree,
      fc.boolean(),
      fc.constantFrom('', ' ', '\n\t'),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 20 }),
      (value, escaped, space, maxDepth, maxValues) => {
        const json = text(value, escaped, space);
        const limits = { maxDepth, maxValues };
        const problem = jsonShapeProblem(JSON.parse(json), limits);
        const fits = jsonTextFits(json, limits);
        if (fits) holds.equal(problem, null, 'the scan passed what the walk refuses');
        if (!hasRepeatedName(value)) holds.equal(fits, problem === null, 'the scan and the walk disagree');
      },
    ),
    { numRuns: numRuns(5000) },
  );
});

t.test('the scan refuses what the walk refuses, in the cases the write path names', async (t) => {
  const limits = { maxDepth: 3, maxValues: 4 };
  for (const json of [
    '{"__proto__":{}}',
    '{"a":{"constructor":{"prototype":1}}}',
    '{"\\u005f_proto__":1}',
    '[[[[1]]]]',
    '{"a":1,"b":2,"c":3,"d":4,"e":5}',
    '[1,2,3,4,5]',
  ]) {
    t.equal(jsonTextFits(json, limits), false, json);
    t.not(jsonShapeProblem(JSON.parse(json), limits), null, json);
  }
  for (const json of ['{"constructor":1,"prototype":{}}', '{"constructor":[{"prototype":1}]}', '{"a":"__proto__"}', '[[1]]', '{"a":[]}', '"x"']) {
    t.equal(jsonTextFits(json, limits), true, json);
    t.equal(jsonShapeProblem(JSON.parse(json), limits), null, json);
  }
});
