/**
 * The two CSV dialects of the exports. Excel opens a .csv with its locale's list separator:
 * "," where the decimal mark is "." (English), ";" where it is "," (German, French, Spanish,
 * Slovene…), so a comma-separated file lands in one column there. `semicolon` writes ";" between
 * fields and numbers with a decimal comma ("-33,3"), which those Excels read as numbers.
 */
export type CsvDialect = 'comma' | 'semicolon';

/** Languages whose Excel separates lists with ";" and writes decimals with ",". */
const SEMICOLON_LANGUAGES = new Set([
  'bg',
  'bs',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'et',
  'eu',
  'fi',
  'fr',
  'gl',
  'hr',
  'hu',
  'id',
  'is',
  'it',
  'lt',
  'lv',
  'nb',
  'nl',
  'nn',
  'no',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'tr',
  'uk',
]);

/** At most this many Accept-Language entries are read: the header is the client's to make long. */
const LANGUAGES_READ = 20;

/**
 * The dialect a browser's Accept-Language suggests: its most preferred language's (the first of
 * the highest q). Only a suggestion: the dashboard offers both files whatever it says.
 */
export function suggestedDialect(acceptLanguage: string | undefined): CsvDialect {
  let best: { language: string; q: number } | null = null;
  for (const entry of (acceptLanguage ?? '').split(',').slice(0, LANGUAGES_READ)) {
    const [tag = '', ...params] = entry.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const language = tag.trim().toLowerCase().split('-')[0] ?? '';
    if (language === '' || language === '*' || !Number.isFinite(q) || q <= 0) continue;
    if (best === null || q > best.q) best = { language, q };
  }
  return best !== null && SEMICOLON_LANGUAGES.has(best.language) ? 'semicolon' : 'comma';
}
