import fc from 'fast-check';
import t from 'tap';
import { type JsonSelection, selectJson } from '../../src/domain/jsonSelect.js';
import { matchTeamNames, matchTeamNamesOfText } from '../../src/domain/matchPayload.js';
import { payloadTextsOfEveryShape } from '../helpers/fixtures.js';

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
      t.same(selectJson(text, sel), project(JSON.parse(text), sel));
    }),
    { numRuns: 2000 },
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
      t.same(matchTeamNamesOfText(text), matchTeamNames(JSON.parse(text)));
    }),
    { numRuns: 1000 },
  );
});
