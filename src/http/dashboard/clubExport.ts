import { stringify } from 'csv-stringify/sync';
import { RATE_NAMES } from '../../domain/statRates.js';
import type { ClubMatchDoc, PlayerStats } from '../../../projections/clubDashboard.js';

/** Rows with a fixed column order: the header row of a CSV and the keys of its JSON twin. */
export interface ExportTable {
  columns: string[];
  rows: (string | number | null)[][];
}

/**
 * Players with their season totals, one row each: who they are, then every stat the apps sent
 * (by name, in name order, blank where a player has none), then the derived percentages.
 */
export function playersTable(players: PlayerStats[], teamName: (teamId: string) => string): ExportTable {
  const stats = [...new Set(players.flatMap((p) => Object.keys(p.totals)))].sort();
  const rates = RATE_NAMES.filter((name) => players.some((p) => p.rates.some((r) => r.name === name)));
  return {
    columns: ['team', 'teamId', 'number', 'name', 'position', 'playerId', 'matchesPlayed', ...stats, ...rates],
    rows: players.map((p) => [
      teamName(p.teamId),
      p.teamId,
      p.number,
      p.name,
      p.position,
      p.playerId,
      p.matchesPlayed,
      ...stats.map((stat) => p.totals[stat] ?? null),
      ...rates.map((name) => p.rates.find((r) => r.name === name)?.value ?? null),
    ]),
  };
}

type DecidedMatch = ClubMatchDoc & { counted: boolean; excluded: boolean };

/** The club's matches, newest first, as the Matches page lists them. */
export function matchesTable(matches: DecidedMatch[], teamName: (teamId: string) => string, matchUrl: (id: string) => string): ExportTable {
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
      m.counted ? 'yes' : 'no',
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
