import { stringify } from 'csv-stringify/sync';
import { type BoxCell, boxScore, type StatFormat, UNKNOWN_STAT_COLUMNS } from '../../domain/statVocabulary.js';
import type { ClubMatchDoc } from '../../../projections/clubDashboard.js';
import type { PlayerTotals } from '../../../projections/clubSeasonTotals.js';
import { CSV_CELL_CHARS, CSV_COLUMNS, CSV_ROWS } from '../views/renderCaps.js';
import { clip } from '../../domain/clippedText.js';
import type { CsvDialect } from './csvDialect.js';

/** Rows with a fixed column order: the header row of a CSV and the keys of its JSON twin. */
export interface ExportTable {
  columns: string[];
  rows: (string | number | null)[][];
  /** Rows and stat columns left out beyond CSV_ROWS and CSV_COLUMNS (and UNKNOWN_STAT_COLUMNS per team); absent when nothing was. */
  omitted?: { rows: number; columns: number };
}

const omission = (rows: number, columns: number) => (rows > 0 || columns > 0 ? { omitted: { rows, columns } } : {});

/**
 * Players with their season totals, one row each: who they are, then the sport's stats in the
 * order and words of the Stats page (made-attempted pairs as two columns, every percentage as
 * a number in percent), blank where a player has none. At most CSV_ROWS rows and CSV_COLUMNS stat columns;
 * what is left out is counted in `omitted`.
 */
export function playersTable(players: PlayerTotals[], teamName: (teamId: string) => string): ExportTable {
  // Each team in its own sport's words; the file's columns are those of every team, first seen first.
  const columns: string[] = [];
  const known = new Set<string>();
  const rows: (string | number | null)[][] = [];
  let moreColumns = 0;
  for (const teamId of new Set(players.map((p) => p.teamId))) {
    const team = players.filter((p) => p.teamId === teamId);
    const room = CSV_ROWS - rows.length;
    const box = boxScore(
      team[0]?.sport ?? null,
      team.map((p) => p.totals),
      { rows: room },
    );
    moreColumns += box.moreStats;
    const names = box.columns.flatMap(columnNames);
    for (const name of names) {
      if (known.has(name)) continue;
      if (columns.length < CSV_COLUMNS) {
        known.add(name);
        columns.push(name);
      } else moreColumns += 1;
    }
    team.slice(0, room).forEach((p, i) => {
      const values = new Map<string, string | number | null>();
      const cells = box.columns.flatMap((column, c) => csvCells(column.format, box.rows[i]?.[c]));
      for (const [n, name] of names.entries()) values.set(name, cells[n] ?? null);
      rows.push([teamName(p.teamId), p.teamId, p.number, p.name, p.position, p.playerId, p.matchesPlayed, ...columns.map((name) => values.get(name) ?? null)]);
    });
  }
  const width = 7 + columns.length;
  return {
    columns: ['team', 'teamId', 'number', 'name', 'position', 'playerId', 'matchesPlayed', ...columns],
    rows: rows.map((row) => [...row, ...Array<null>(width - row.length).fill(null)]),
    ...omission(players.length - rows.length, moreColumns),
  };
}

/**
 * A stat's CSV column names: its full name without the formula a title may explain; a
 * made–attempted pair as two columns ("Field goals made", "Field goals attempted"); a
 * percentage marked "(%)", since every percentage is in percent.
 */
function columnNames(column: { title: string; format: StatFormat }): string[] {
  const title = (column.title.split(':')[0] ?? column.title).trim();
  if (column.format === 'madeAttempted') {
    const stat = title.replace(/\s*made\s*[–-]\s*attempted$/i, '');
    return [`${stat} made`, `${stat} attempted`];
  }
  return column.format === 'percent' || column.format === 'hitting' ? [`${title} (%)`] : [title];
}

/** A box-score cell as spreadsheet values: numbers stay numbers, "12-30" becomes 12 and 30. */
function csvCells(format: StatFormat, cell: BoxCell | undefined): (string | number | null)[] {
  if (format === 'madeAttempted') {
    const [made, attempted] = (cell?.text ?? '').split('-');
    return made === undefined || attempted === undefined ? [null, null] : [Number(made), Number(attempted)];
  }
  if (cell === undefined || cell.sort === null) return [null];
  // One scale for every percentage in the file: percent (50 is 50 %; hitting .333 is 33.3).
  if (format === 'percent' || format === 'hitting') return [Math.round(cell.sort * 1000) / 10];
  if (format === 'minutes') return [cell.text];
  return [cell.sort];
}

/** The club's matches, newest first, as the Matches page lists them: at most CSV_ROWS (read one more to know there are more). */
export function matchesTable(all: ClubMatchDoc[], teamName: (teamId: string) => string, matchUrl: (id: string) => string): ExportTable {
  const matches = all.length > CSV_ROWS ? all.slice(0, CSV_ROWS) : all;
  return {
    ...omission(all.length - matches.length, 0),
    columns: [
      'matchId',
      'date',
      'home',
      'away',
      'homeScore',
      'awayScore',
      'scoreUnit',
      'team',
      'teamId',
      'side',
      'counted',
      'season',
      'category',
      'competition',
      'sync',
      'url',
    ],
    rows: matches.map((m) => [
      m.matchId,
      m.startedAt?.slice(0, 10) ?? null,
      m.home.name,
      m.away.name,
      m.home.score,
      m.away.score,
      m.scoreUnit,
      teamName(m.teamId),
      m.teamId,
      m.side ?? 'unknown',
      m.side !== null && !m.excluded ? 'yes' : 'no',
      m.season,
      m.category,
      m.competition,
      m.outcome,
      matchUrl(m.matchId),
    ]),
  };
}

/**
 * CSV for spreadsheets: a UTF-8 byte order mark (without it Excel on Windows reads the file as
 * its local code page: "DÄ…browska"), header row, RFC 4180 quoting, and text cells that a spreadsheet would
 * run as a formula (starting with = + - @, tab or CR) prefixed with ' (numbers stay numbers).
 * The `semicolon` dialect separates fields with ";" and writes decimal commas (see csvDialect.ts).
 * A cut table ends with one comment row (starting with #) that says what was left out.
 */
export const toCsv = (table: ExportTable, dialect: CsvDialect = 'comma'): string =>
  stringify([table.columns, ...table.rows.map(clippedCells), ...(table.omitted ? [[omittedNote(table.omitted)]] : [])], {
    bom: true,
    escape_formulas: true,
    record_delimiter: 'windows',
    ...(dialect === 'semicolon' ? { delimiter: ';', cast: { number: (value: number) => String(value).replace('.', ',') } } : {}),
  });

/** Text cells cut to CSV_CELL_CHARS: a name of a few hundred KB in every row would make a file of gigabytes. */
const clippedCells = (row: (string | number | null)[]) => row.map((value) => (typeof value === 'string' ? clip(value, CSV_CELL_CHARS) : value));

/** The CSV's last row when the table was cut: what is missing, and the caps. */
function omittedNote({ rows, columns }: { rows: number; columns: number }): string {
  const parts = [
    rows > 0 ? `${rows} more ${rows === 1 ? 'row' : 'rows'}` : '',
    columns > 0 ? `${columns} more stat ${columns === 1 ? 'column' : 'columns'}` : '',
  ].filter(Boolean);
  return (
    `# truncated: ${parts.join(' and ')} not in this file (at most ${CSV_ROWS} rows and ${CSV_COLUMNS} stat columns; ` +
    `at most ${UNKNOWN_STAT_COLUMNS} stats per team that are not in its sport's list); narrow the filter for the rest`
  );
}

/** The JSON twin: the same rows as objects keyed by the CSV's column names, in the same order. */
export const toJsonRows = (table: ExportTable) =>
  table.rows.map(clippedCells).map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? null])));
