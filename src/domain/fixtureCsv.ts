import { validationError } from './errors.js';
import { type FixtureDetails, fixtureDetails } from './fixtures.js';
import { isOneOf } from '../platform/oneOf.js';

/** Most rows one import takes (a season's fixtures, with room); the form's field caps the size (FIXTURE_CSV_MAX_CHARS). */
export const FIXTURE_CSV_MAX_ROWS = 100;
export const FIXTURE_CSV_MAX_CHARS = 10_000;

const COLUMNS = ['date', 'time', 'opponent', 'venue', 'home_away', 'match_id'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ['date', 'time', 'opponent', 'home_away'];
const isColumn = (name: string): name is Column => isOneOf(COLUMNS, name);

/** One line's fields: separated by `separator`, a field in double quotes may hold it ("" is a quote). */
function fields(line: string, separator: string): string[] | null {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === separator) {
      out.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return null;
  out.push(field);
  return out;
}

/**
 * A fixtures CSV: a header row naming the columns (date, time, opponent, venue, home_away and
 * optionally match_id, in any order), comma or semicolon separated (as the header is), then one
 * fixture per row. All or nothing: the first bad row refuses the whole file, with its row number
 * (the header is row 1) and what to fix. Times are in `timeZone`.
 */
export function parseFixtureCsv(text: string, timeZone: string): FixtureDetails[] {
  if (text.length > FIXTURE_CSV_MAX_CHARS) throw validationError(`the file is ${text.length} characters long; at most ${FIXTURE_CSV_MAX_CHARS}: split it`);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const header = lines[0] ?? '';
  const separator = header.includes(';') && !header.includes(',') ? ';' : ',';
  const names = (fields(header, separator) ?? []).map((name) => name.trim().toLowerCase());
  const unknown = names.find((name) => !isColumn(name));
  if (unknown !== undefined) {
    throw validationError(`row 1 (the header): unknown column "${unknown}"; the columns are ${COLUMNS.join(', ')} (match_id and venue may be left out)`);
  }
  const missing = REQUIRED.find((name) => !names.includes(name));
  if (missing !== undefined)
    throw validationError(`row 1 (the header): the column ${missing} is missing; the header is e.g. date,time,opponent,venue,home_away`);
  const fixtures: FixtureDetails[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const row = i + 1;
    if (fixtures.length >= FIXTURE_CSV_MAX_ROWS) throw validationError(`row ${row}: at most ${FIXTURE_CSV_MAX_ROWS} fixtures per import; split the file`);
    const values = fields(line, separator);
    if (values === null) throw validationError(`row ${row}: a quote is opened and not closed`);
    if (values.length !== names.length) throw validationError(`row ${row}: ${values.length} fields where the header has ${names.length}`);
    const get = (column: Column) => values[names.indexOf(column)] ?? '';
    let details: FixtureDetails;
    try {
      details = fixtureDetails({
        date: get('date'),
        time: get('time'),
        opponent: get('opponent'),
        venue: get('venue'),
        homeAway: get('home_away'),
        matchId: get('match_id'),
        timeZone,
      });
    } catch (error) {
      throw validationError(`row ${row}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const key = `${details.startsAt}\0${details.opponent.toLowerCase()}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw validationError(`row ${row}: the same fixture as row ${earlier}; remove one`);
    seen.set(key, row);
    fixtures.push(details);
  }
  if (fixtures.length === 0) throw validationError('the file has a header but no fixture: add one row per fixture under it');
  return fixtures;
}
