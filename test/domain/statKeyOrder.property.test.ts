import fc from 'fast-check';
import t from 'tap';
import { boxScore, statKeyOrder, UNKNOWN_STAT_COLUMNS } from '../../src/domain/statVocabulary.js';
import { holds, numRuns } from '../helpers/properties.js';

type Stats = Record<string, number>;

/** The order as it was first made: every name of every line ranked by first appearance. */
function everyNameRanked(lines: readonly Stats[]) {
  const order = new Map<string, number>();
  for (const stats of lines) for (const key in stats) if (!order.has(key)) order.set(key, order.size);
  return () => order;
}

t.test("ranking only a table's shown names orders its columns as ranking every name did", async (t) => {
  // Few names so that they repeat across players, many so that the column cap cuts; known ones and numeric-looking ones too.
  const name = fc.oneof(
    fc.constantFrom('kills', 'aces', 'points', '7', '12', 'toString', 'constructor', 'zeta', 'alpha'),
    fc.integer({ min: 0, max: 60 }).map((n) => `s${n}`),
  );
  const line = fc.dictionary(name, fc.integer({ min: 0, max: 9 }), { maxKeys: 40 });
  const match = fc.array(line, { maxLength: 30 });
  fc.assert(
    fc.property(match, fc.nat(), fc.constantFrom('volleyball', 'curling', null), (lines, cut, sport) => {
      const home = lines.slice(0, cut % (lines.length + 1));
      const away = lines.slice(home.length);
      for (const side of [home, away]) {
        const lazy = boxScore(sport, side, { rows: 10, order: statKeyOrder(lines) });
        const eager = boxScore(sport, side, { rows: 10, order: everyNameRanked(lines) });
        holds.same(lazy, eager);
      }
    }),
    { numRuns: numRuns(1500) },
  );
  t.ok(UNKNOWN_STAT_COLUMNS < 61, 'the names above are more than a table shows');
});
