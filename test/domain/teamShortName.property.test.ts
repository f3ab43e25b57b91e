import fc from 'fast-check';
import t from 'tap';
import { teamShortName, teamShortNames } from '../../src/domain/shortNames.js';
import { numRuns } from '../helpers/properties.js';

const piece = fc.oneof(
  fc.constantFrom(
    'FC',
    'fc',
    'City',
    'United',
    'Hillcrest',
    'Stonebridge',
    'Lynx',
    '1899',
    '1.',
    'e.V.',
    'U18',
    'A',
    'B',
    'ß',
    'straße',
    'Ö',
    '😀',
    '😀x',
    'abcdefghijklm',
    'Göttingen-Weende',
    'é',
    'Ⅷ',
  ),
  fc.string({ maxLength: 14 }),
);
const blank = fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u2003', '');
const name = fc.array(fc.tuple(blank, piece), { maxLength: 9 }).chain((parts) => blank.map((end) => parts.map(([b, p]) => b + p).join('') + end));
const codePoints = (s: string) => [...s].length;

t.test('a derived team short name fits its column and is made of whole words of the name, or their initials', async () => {
  fc.assert(
    fc.property(name, fc.option(name), fc.integer({ min: 3, max: 14 }), (home, away, max) => {
      const short = teamShortName(home, away, max);
      if (short === home) return true;
      const words = home.split(/\s+/).flatMap((w) => [w, ...w.split('-')]);
      const wholeWords = short.split(' ').every((w) => words.includes(w));
      const initials = short === short.toLocaleUpperCase();
      // Fits, and is whole words or initials.
      return codePoints(short) <= max && (wholeWords || initials);
    }),
    { numRuns: numRuns(3000) },
  );
});

t.test('two different teams never get the same short name', async () => {
  fc.assert(
    fc.property(name, name, (home, away) => {
      if (home === away) return true;
      const pair = teamShortNames({ name: home, short: null }, { name: away, short: null });
      return pair.home.toLowerCase() !== pair.away.toLowerCase();
    }),
    { numRuns: numRuns(3000) },
  );
});

t.test('a very long name costs no list of all its words or characters', async (t) => {
  const long = 'Ö'.repeat(300_000);
  const started = performance.now();
  t.equal(teamShortName(long, 'FC Other'), 'ÖÖÖ');
  const markup = '<b>&amp;"\'</b> '.repeat(37_500);
  t.ok(codePoints(teamShortName(markup, long)) <= 12);
  t.equal(teamShortName(`${'fc '.repeat(10_000)}Lynx`, null), 'FFFFF', 'only the first words are read: initials of them');
  t.ok(performance.now() - started < 500, 'in well under a second');
});
