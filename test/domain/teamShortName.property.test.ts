import fc from 'fast-check';
import t from 'tap';
import { GENERIC, teamShortName } from '../../src/domain/shortNames.js';

/** teamShortName as first written: every word and every character of both names listed. */
function listingEverything(name: string, otherName: string | null, max = 12): string {
  if ([...name].length <= max) return name;
  const words = name.split(/\s+/).filter((w) => w !== '');
  const distinctive = words.filter((w) => !GENERIC.has(w.toLowerCase()) && !/^\d/.test(w));
  const firstWord = distinctive[0] ?? words[0] ?? name;
  const otherFirst = otherName === null ? null : (otherName.split(/\s+/).find((w) => !GENERIC.has(w.toLowerCase())) ?? null);
  if ([...firstWord].length <= max && firstWord !== otherFirst) return firstWord;
  if (words.length >= 3)
    return words
      .map((w) => [...w][0]!.toLocaleUpperCase())
      .join('')
      .slice(0, 5);
  return [...firstWord].slice(0, 3).join('').toLocaleUpperCase();
}

t.test('a team short name read word by word is the one made from every word', async (t) => {
  const piece = fc.oneof(
    fc.constantFrom('FC', 'fc', 'City', 'United', 'Hillcrest', 'Stonebridge', 'Lynx', '1899', 'ß', 'straße', 'Ö', '😀', '😀x', 'abcdefghijklm', 'é', 'Ⅷ'),
    fc.string({ maxLength: 14 }),
  );
  const blank = fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u2003', '');
  const name = fc.array(fc.tuple(blank, piece), { maxLength: 9 }).chain((parts) => blank.map((end) => parts.map(([b, p]) => b + p).join('') + end));
  fc.assert(
    fc.property(name, fc.option(name), fc.integer({ min: 1, max: 14 }), (home, away, max) => {
      t.equal(teamShortName(home, away, max), listingEverything(home, away, max), JSON.stringify([home, away, max]));
    }),
    { numRuns: 5000 },
  );
  const long = 'Ö'.repeat(300_000);
  t.equal(teamShortName(long, 'FC Other'), listingEverything(long, 'FC Other'));
  const markup = '<b>&amp;"\'</b> '.repeat(37_500);
  t.equal(teamShortName(markup, long), listingEverything(markup, long));
  t.equal(teamShortName(`${'fc '.repeat(10_000)}Lynx`, null), listingEverything(`${'fc '.repeat(10_000)}Lynx`, null));
});
