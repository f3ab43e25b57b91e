import { processMemo } from '../platform/processMemos.js';

/** Trailing words that say age group, sex or level, not which club: "U18", "Girls", "2nd", "JV". */
const AGE_OR_RANK = /^(u\d{1,2}|under\d{0,2}|\d{1,2}u|\d{1,2}(st|nd|rd|th))$/;
const SEX_OR_LEVEL = /^(girls?|boys?|women|womens|men|mens|ladies|youth|juniors?|seniors?|jr|sr|jv|varsity|reserves?|ii|iii|[ab])$/;
const isTeamSuffix = (word: string) => AGE_OR_RANK.test(word) || SEX_OR_LEVEL.test(word);

/** Names normalised lately: a club's own names, and its opponents', come with every upload. */
const normalised = processMemo<string>('teamNames', 'team names of up to 200 characters and their normalTeamName, the latest 1,000', 1000);
const MEMO_NAME_MAX = 200;

/**
 * A team name as compared when finding the club's side: case, accents and punctuation ignored,
 * trailing age-group and level words dropped ("Lakeside Herons U18 Girls" is "lakeside herons").
 */
export function normalTeamName(name: string): string {
  const known = normalised.get(name);
  if (known !== undefined) return known;
  const normal = normalise(name);
  if (name.length <= MEMO_NAME_MAX) normalised.set(name, normal);
  return normal;
}

function normalise(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/g, 's')
    // Initials: "L.H." is "lh".
    .replace(/\./g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  // "Under 18" and "U-16" are two words: drop the number with its "under" or "u".
  while (words.length > 1) {
    const last = words.at(-1) ?? '';
    if (/^\d{1,2}$/.test(last) && (words.at(-2) === 'under' || words.at(-2) === 'u') && words.length > 2) words.splice(-2, 2);
    else if (isTeamSuffix(last)) words.pop();
    else break;
  }
  return words.join(' ');
}
