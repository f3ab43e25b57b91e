/**
 * Names shortened the way scoreboards and box scores shorten them: a player's given names as
 * initials ("A.-K. Papadopoulou-Schmidt"), a team's first distinctive word or initials. Whole
 * words are kept or replaced, never cut inside. Pure.
 */

/** Words that belong to the family name that follows them ("van Dijk", "da Silva"). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'dos',
  'das',
  'du',
  'le',
  'la',
  'ten',
  'ter',
  'bin',
  'ibn',
  'al',
  'el',
  'mac',
  'st.',
  'zu',
]);
/** Words after the family name ("Jr."), kept with it. */
const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv']);

const initial = (part: string) => {
  const letter = [...part][0];
  return letter === undefined ? '' : `${letter.toLocaleUpperCase()}.`;
};

/**
 * "Anna-Katharina Papadopoulou-Schmidt" → "A.-K. Papadopoulou-Schmidt", "Virgil van Dijk" →
 * "V. van Dijk", "Jaren Jackson Jr." → "J. Jackson Jr."; a one-word name stays as it is.
 */
export function initialledName(full: string): string {
  const { words, family } = nameParts(full);
  const given = words.slice(0, family).map((word) => word.split('-').map(initial).join('-'));
  return [...given, ...words.slice(family)].join(' ');
}

/** The family name alone, as scorer lines show it ("Köhler", "van Dijk"); a one-word name stays. */
export function familyName(full: string): string {
  const { words, family } = nameParts(full);
  return words.slice(family).join(' ');
}

/** A name's words and where its family name starts (0 for a one-word name). */
function nameParts(full: string): { words: string[]; family: number } {
  const words = full.trim().split(/\s+/);
  let end = words.length;
  while (end > 1 && SUFFIXES.has(words[end - 1]!.toLowerCase())) end -= 1;
  if (end < 2) return { words, family: 0 };
  for (let i = 1; i < end - 1; i += 1) if (PARTICLES.has(words[i]!.toLowerCase())) return { words, family: i };
  return { words, family: end - 1 };
}

/**
 * Each name's short form, unique among `names`: the initialled form where no other name shares
 * it, the name as given where two would read the same ("L. Haraldsdóttir" twice).
 */
export function shortNames(names: readonly (string | null)[], preferred: readonly (string | null)[] = []): (string | null)[] {
  const short = names.map((name, i) => preferred[i] ?? (name === null ? null : initialledName(name)));
  const seen = new Map<string, number>();
  for (const s of short) if (s !== null) seen.set(s, (seen.get(s) ?? 0) + 1);
  return short.map((s, i) => (s !== null && (seen.get(s) ?? 0) > 1 ? names[i]! : s));
}

/** Club prefixes and suffixes that say nothing about which team it is. */
export const GENERIC = new Set([
  'fc',
  'sc',
  'vc',
  'bc',
  'ac',
  'afc',
  'cf',
  'sv',
  'tsv',
  'vfb',
  'vfl',
  'tv',
  'club',
  'the',
  'de',
  'real',
  'sporting',
  'athletic',
  'volleyball',
  'basketball',
  'community',
  'city',
  'united',
  'u18',
  'u16',
  'u14',
]);

/** Whether `text` has at most `max` code points, without listing a long text's. */
function fits(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  return [...text].length <= max;
}

/** The first `count` code points of `text` (they lie in its first 2 × count code units). */
const firstCodePoints = (text: string, count: number) => [...text.slice(0, 2 * count)].slice(0, count);

/** The first word of `name.split(/\s+/)` that is not generic ('' for a leading or trailing blank), read only as far as it is found. */
function firstOtherWord(name: string): string | null {
  if (name === '' || /^\s/.test(name)) return '';
  for (const [word] of name.matchAll(/\S+/g)) if (!GENERIC.has(word.toLowerCase())) return word;
  return /\s$/.test(name) ? '' : null;
}

/**
 * A short name for a team that has none in its payload, for narrow columns (at most 12
 * characters): the team's first distinctive word when it fits and differs from the other
 * team's ("Hillcrest"), else the initials of three words or more ("SEF"), else the first three
 * letters as a tricode ("STO"); a name that fits stays as it is. Reads only the words it needs
 * (at most the first distinctive one and five more): a name of 600,000 characters costs no
 * list of all its words or characters.
 */
export function teamShortName(name: string, otherName: string | null, max = 12): string {
  if (fits(name, max)) return name;
  const words: string[] = [];
  let distinctive: string | undefined;
  let more = false;
  for (const [word] of name.matchAll(/\S+/g)) {
    if (distinctive !== undefined && words.length >= 5) {
      more = true;
      break;
    }
    words.push(word);
    if (distinctive === undefined && !GENERIC.has(word.toLowerCase()) && !/^\d/.test(word)) distinctive = word;
  }
  const firstWord = distinctive ?? words[0] ?? name;
  const otherFirst = otherName === null ? null : firstOtherWord(otherName);
  if (fits(firstWord, max) && firstWord !== otherFirst) return firstWord;
  if (words.length >= 3 || more)
    return words
      .map((w) => firstCodePoints(w, 1)[0]!.toLocaleUpperCase())
      .join('')
      .slice(0, 5);
  return firstCodePoints(firstWord, 3).join('').toLocaleUpperCase();
}
