import { stringify } from 'csv-stringify/sync';
import { type BoxCell, boxScore, type StatFormat } from '../../domain/statVocabulary.js';
import type { ClubMatchDoc } from '../../../projections/clubDashboard.js';
import type { PlayerTotals } from '../../../projections/clubSeasonTotals.js';

/** Rows with a fixed column order: the header row of a CSV and the keys of its JSON twin. */
export interface ExportTable {
  columns: string[];
  rows: (string | number | null)[][];
}

/**
 * Players with their season totals, one row each: who they are, then the sport's stats in the
 * order and words of the Stats page (made-attempted pairs as two columns, percentages as
 * numbers), blank where a player has none.
 */
export function playersTable(players: PlayerTotals[], teamName: (teamId: string) => string): ExportTable {
  // Each team in its own sport's words; the file's columns are those of every team, first seen first.
  const columns: string[] = [];
  const rows: (string | number | null)[][] = [];
  for (const teamId of new Set(players.map((p) => p.teamId))) {
    const team = players.filter((p) => p.teamId === teamId);
    const box = boxScore(team[0]?.sport ?? null, team.map((p) => p.totals));
    // Column names are the stats' full names, without the formula a title may explain.
    const names = box.columns.flatMap((column) => {
      const title = column.title.split(':')[0] ?? column.title;
      return column.format === 'madeAttempted' ? [`${title} made`, `${title} attempted`] : [title];
    });
    for (const name of names) if (!columns.includes(name)) columns.push(name);
    team.forEach((p, i) => {
      const values = new Map<string, string | number | null>();
      const cells = box.columns.flatMap((column, c) => csvCells(column.format, box.rows[i]?.[c]));
      names.forEach((name, n) => values.set(name, cells[n] ?? null));
      rows.push([teamName(p.teamId), p.teamId, p.number, p.name, p.position, p.playerId, p.matchesPlayed, ...columns.map((name) => values.get(name) ?? null)]);
    });
  }
  const width = 7 + columns.length;
  return { columns: ['team', 'teamId', 'number', 'name', 'position', 'playerId', 'matchesPlayed', ...columns], rows: rows.map((row) => [...row, ...Array<null>(width - row.length).fill(null)]) };
}

/** A box-score cell as spreadsheet values: numbers stay numbers, "12-30" becomes 12 and 30. */
function csvCells(format: StatFormat, cell: BoxCell | undefined): (string | number | null)[] {
  if (format === 'madeAttempted') {
    const [made, attempted] = (cell?.text ?? '').split('-');
    return made === undefined || attempted === undefined ? [null, null] : [Number(made), Number(attempted)];
  }
  if (cell === undefined || cell.sort === null) return [null];
  if (format === 'percent') return [Math.round(cell.sort * 1000) / 10];
  if (format === 'hitting') return [Math.round(cell.sort * 1000) / 1000];
  if (format === 'minutes') return [cell.text];
  return [cell.sort];
}

/** The club's matches, newest first, as the Matches page lists them. */
export function matchesTable(matches: ClubMatchDoc[], teamName: (teamId: string) => string, matchUrl: (id: string) => string): ExportTable {
  return {
    columns: ['matchId', 'date', 'home', 'away', 'homeScore', 'awayScore', 'scoreUnit', 'team', 'teamId', 'side', 'counted', 'season', 'category', 'competition', 'sync', 'url'],
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
 * CSV for spreadsheets: header row, RFC 4180 quoting, and text cells that a spreadsheet would
 * run as a formula (starting with = + - @, tab or CR) prefixed with ' (numbers stay numbers).
 */
export const toCsv = (table: ExportTable): string => stringify([table.columns, ...table.rows], { escape_formulas: true, record_delimiter: 'windows' });

/** The JSON twin: the same rows as objects keyed by the CSV's column names, in the same order. */
export const toJsonRows = (table: ExportTable) => table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? null])));
