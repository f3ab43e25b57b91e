import fc from 'fast-check';
import t from 'tap';
import { type JsonSelection, selectJson, selectJsonAfter, type SkippedValues } from '../../src/domain/jsonSelect.js';
import { matchTeamNames, matchTeamNamesAfter, matchTeamNamesOfText } from '../../src/domain/matchPayload.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { payloadTextsOfEveryShape } from '../helpers/fixtures.js';
import { holds, numRuns } from '../helpers/properties.js';

/** The selection applied to a parsed value: what selectJson must give without parsing the rest. */
function project(value: unknown, selection: JsonSelection): unknown {
  if (selection === true || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return [];
  if (selection === 'kind') return {};
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(selection)
      .filter((key) => Object.hasOwn(record, key))
      .map((key) => [key, project(record[key], selection[key]!)]),
  );
}

const keys = fc.constantFrom('a', 'b', 'name', 'home', 'x"y', 'é\\n', '\u2028', 'constructor');
const selection: fc.Arbitrary<JsonSelection> = fc.letrec<{ sel: JsonSelection }>((tie) => ({
  sel: fc.oneof({ depthSize: 'small' }, fc.constant(true as const), fc.constant('kind' as const), fc.dictionary(keys, tie('sel'), { maxKeys: 4 })),
})).sel;
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.dictionary(keys, tie('v'), { maxKeys: 5 }), fc.array(tie('v'), { maxLength: 4 })),
})).v;

t.test('selectJson gives what the selection takes of JSON.parse, whatever the spacing and escapes', async (t) => {
  fc.assert(
    fc.property(value, selection, fc.constantFrom(undefined, 1, '\t', ' \r\n '), (v, sel, space) => {
      const text = JSON.stringify(v, null, space as string | number | undefined);
      holds.same(selectJson(text, sel), project(JSON.parse(text), sel));
    }),
    { numRuns: numRuns(2000) },
  );
  t.same(selectJson('{"a":1,"a":{"b":2,"c":3}}', { a: { b: true } }), { a: { b: 2 } }, 'the later duplicate wins, as in JSON.parse');
  t.same(selectJson('{"a\\"}":"}]\\\\","b":[{"c":"\\""}]}', { b: true }), { b: [{ c: '"' }] }, 'quotes and brackets inside strings are skipped');
});

t.test('team names read from the text are those of the parsed payload, for every sport and shape', async (t) => {
  const texts = payloadTextsOfEveryShape();
  for (const text of texts) t.same(matchTeamNamesOfText(text), matchTeamNames(JSON.parse(text)));
  const team = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.array(fc.string()),
    fc.record({ name: fc.string(), teamCity: fc.string(), teamName: fc.string(), title: fc.string(), home_team_name: fc.string() }, { requiredKeys: [] }),
  );
  const sides = fc.record(
    {
      homeTeam: team,
      awayTeam: team,
      home: team,
      away: team,
      teams: fc.record({ home: team, away: team }, { requiredKeys: [] }),
      home_team: team,
      away_team: team,
      home_team_name: team,
      away_team_name: team,
    },
    { requiredKeys: [] },
  );
  const payload = fc
    .tuple(sides, fc.option(fc.tuple(sides, fc.option(fc.array(fc.integer())))))
    .map(([top, game]) => (game === null ? top : { ...top, game: { ...game[0], ...(game[1] === null ? {} : { actions: game[1] }) } }));
  fc.assert(
    fc.property(payload, (body) => {
      const text = JSON.stringify(body);
      holds.same(matchTeamNamesOfText(text), matchTeamNames(JSON.parse(text)));
    }),
    { numRuns: numRuns(1000) },
  );
});

t.test("selectJsonAfter gives selectJson's value and skipped places whatever the earlier scan was of", async (t) => {
  // Long arrays and objects (past what a scan notes), some members selected, some skipped.
  const rally = fc.record({ seq: fc.integer(), team: fc.constantFrom('home', 'away'), note: fc.constantFrom('', ']}', '"[{', 'x\\"y', 'é') });
  const rallies = fc.array(rally, { minLength: 20, maxLength: 40 });
  const match = fc.record({
    name: fc.string(),
    actions: rallies,
    stats: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), rallies),
    game: fc.record({ home: fc.string(), actions: rallies }),
  });
  // The next version: more rallies at the end, or other ones, or the same.
  type Match = typeof match extends fc.Arbitrary<infer M> ? M : never;
  const next = (m: Match) =>
    fc.record({ more: rallies, edit: fc.constantFrom('grow', 'same', 'other', 'shrink') }).map(({ more, edit }) => {
      const grown = (list: unknown[]) => (edit === 'grow' ? [...list, ...more] : edit === 'other' ? more : edit === 'shrink' ? list.slice(0, -1) : list);
      return { ...m, actions: grown(m.actions), game: { ...m.game, actions: grown(m.game.actions) } };
    });
  const selections: JsonSelection[] = [{ name: true, game: { home: true, actions: 'kind' } }, { stats: 'kind', game: 'kind' }, { name: true }];
  fc.assert(
    fc.property(
      match.chain((m) => fc.tuple(fc.constant(m), next(m))),
      fc.constantFrom(...selections),
      fc.constantFrom(undefined, 1),
      ([before, after], sel, space) => {
        const earlier = selectJsonAfter(JSON.stringify(before, null, space), sel, null).skipped;
        const text = JSON.stringify(after, null, space);
        const again = selectJsonAfter(text, sel, earlier);
        const fresh = selectJsonAfter(text, sel, null);
        holds.same(again.value, selectJson(text, sel));
        holds.same([...again.skipped.spans], [...fresh.skipped.spans]);
      },
    ),
    { numRuns: numRuns(500) },
  );
  const long = JSON.stringify({ a: Array.from({ length: 100 }, (_, i) => ({ i, s: ']' })) });
  const earlier = selectJsonAfter(long, { b: true }, null).skipped;
  t.ok(earlier.spans.size > 0, 'a long skipped value is noted');
  const grown = long.replace(/]}$/, ',{"i":100,"s":"]"}],"b":2}');
  t.same(selectJsonAfter(grown, { b: true }, earlier).value, { b: 2 }, 'a value grown at its end is skipped past what the two share');
  t.same(selectJsonAfter('{"b":3}', { b: true }, earlier).value, { b: 3 }, 'an unrelated text is scanned');
});

t.test("a live match's team names read after its previous version's scan are those of each parsed version", async (t) => {
  let earlier: SkippedValues | null = null;
  for (const text of liveMatchUploads()) {
    const { names, skipped } = matchTeamNamesAfter(text, earlier);
    t.same(names, matchTeamNames(JSON.parse(text)));
    earlier = skipped;
  }
  t.ok(earlier !== null && earlier.spans.size > 0, 'the play-by-play is noted');
});
