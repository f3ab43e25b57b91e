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
const GENERIC = new Set([
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

/**
 * A short name for a team that has none in its payload, for narrow columns (at most 12
 * characters): the team's first distinctive word when it fits and differs from the other
 * team's ("Hillcrest"), else the initials of three words or more ("SEF"), else the first three
 * letters as a tricode ("STO"); a name that fits stays as it is.
 */
export function teamShortName(name: string, otherName: string | null, max = 12): string {
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
