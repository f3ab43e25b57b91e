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

/** Club prefixes, legal forms and suffixes that say nothing about which team it is. */
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
  'fsv',
  'ssv',
  'vfb',
  'vfl',
  'vfr',
  'tus',
  'sg',
  'spvgg',
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
  'e.v.',
  'ev',
  'u18',
  'u16',
  'u14',
]);

/** How many of a name's leading words are read: a name of 600,000 characters costs no list of all its words. */
const WORDS_READ = 8;

/** Whether `text` has at most `max` code points, without listing a long text's. */
function fits(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  return [...text].length <= max;
}

/** The first `count` code points of `text` (they lie in its first 2 × count code units). */
const firstCodePoints = (text: string, count: number) => [...text.slice(0, 2 * count)].slice(0, count);

/** A name's first WORDS_READ words, read only as far as that. */
function leadingWords(name: string): string[] {
  const words: string[] = [];
  for (const [word] of name.matchAll(/\S+/g)) {
    words.push(word);
    if (words.length >= WORDS_READ) break;
  }
  return words;
}

/** A word that tells a club apart: not a prefix or legal form ("FC", "e.V."), not a number ("1.", "05", "1899"). */
const isDistinctive = (word: string) => !GENERIC.has(word.toLowerCase()) && /^\p{L}/u.test(word) && [...word].length > 1;

/**
 * A team's lead word as a narrow column shows it: its first distinctive word, or that word's
 * first part when a hyphenated word is too long ("Göttingen-Weende" → "Göttingen"); null when
 * none fits.
 */
function leadWord(words: readonly string[], max: number): string | null {
  const word = words.find(isDistinctive);
  if (word === undefined) return null;
  if (fits(word, max)) return word;
  const part = word.split('-')[0] ?? '';
  return part.length > 1 && fits(part, max) ? part : null;
}

/** The first of `words` that the other name lacks (case ignored): "Owls" of "Northgate Owls" beside "Northgate Comets", "A" of "… U18 A". */
function differingWord(words: readonly string[], other: readonly string[]): string | null {
  const others = new Set(other.map((w) => w.toLowerCase()));
  return words.find((w) => !others.has(w.toLowerCase()) && !/^\d+\.?$/.test(w)) ?? null;
}

/** The initials of up to five words ("SEF"), else a word's first three letters ("MAS"); at most `max` characters. */
function initials(words: readonly string[], name: string, max: number): string {
  const letters = words.filter((w) => /^\p{L}/u.test(w));
  const upper = (w: string, count: number) => firstCodePoints(w.toLocaleUpperCase(), count).join('');
  if (letters.length >= 3)
    return letters
      .slice(0, Math.min(5, max))
      .map((w) => upper(w, 1))
      .join('');
  return upper(letters[0] ?? words[0] ?? name, Math.min(3, max));
}

/**
 * A short name for a team that has none in its payload, for narrow columns (at most `max`
 * characters), told apart from the other side's: a name that fits stays as it is; else its
 * first distinctive word ("Hillcrest", "Göttingen" of "1. FC Göttingen-Weende 05 e.V."); where
 * the other side's is the same, that word with the word that tells them apart ("Lengede A" v
 * "Lengede B") or, when that is too long, the telling word alone ("Owls" v "Comets"); else
 * initials ("SEF") or a tricode ("MAS"). Whole words, never cut inside (a hyphenated word's
 * first part is a word). Reads at most WORDS_READ words of each name.
 */
export function teamShortName(name: string, otherName: string | null, max = 12): string {
  if (fits(name, max)) return name;
  const words = leadingWords(name);
  const other = otherName === null ? [] : leadingWords(otherName);
  const lead = leadWord(words, max);
  const otherLead = otherName === null || fits(otherName, max) ? (otherName ?? null) : leadWord(other, max);
  if (lead !== null && lead.toLowerCase() !== otherLead?.toLowerCase()) return lead;
  const telling = differingWord(words, other);
  if (lead !== null && telling !== null && telling !== lead && fits(`${lead} ${telling}`, max)) return `${lead} ${telling}`;
  if (telling !== null && isDistinctive(telling) && fits(telling, max)) return telling;
  return initials(words, name, max);
}

/** A side's name and the payload's own short name for it, when it has one. */
interface NamedTeam {
  name: string | null;
  short?: string | null;
}

/**
 * Both sides' short names, never the same for two different teams: each payload's own
 * (`shortName`, a tricode) unless both sides give the same one, else teamShortName's; if those
 * still read alike, initials, then the side ("Home", "Away") after it.
 */
export function teamShortNames(home: NamedTeam, away: NamedTeam, max = 12): { home: string; away: string } {
  const sameShort = home.short != null && away.short != null && home.short.toLowerCase() === away.short.toLowerCase();
  const derived = (t: NamedTeam, o: NamedTeam, fallback: string) =>
    (sameShort ? null : (t.short ?? null)) ?? (t.name === null ? fallback : teamShortName(t.name, o.name, max));
  const h = derived(home, away, 'Home');
  const a = derived(away, home, 'Away');
  if (h.toLowerCase() !== a.toLowerCase() || home.name === away.name) return { home: h, away: a };
  const hi = initials(leadingWords(home.name ?? ''), home.name ?? 'Home', max);
  const ai = initials(leadingWords(away.name ?? ''), away.name ?? 'Away', max);
  return hi.toLowerCase() !== ai.toLowerCase() ? { home: hi, away: ai } : { home: `${h} (H)`, away: `${a} (A)` };
}
