import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { ExistingClub } from '../../../domain/club.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import { readClubMatches } from '../../../../projections/clubDashboard.js';
import { playerTotalsOf, readSeasonTotals } from '../../../../projections/clubSeasonTotals.js';
import { CSV_ROWS } from '../../views/renderCaps.js';
import { matchesTable, playersTable, toCsv, toJsonRows } from '../clubExport.js';
import { clubOf, filterOf, teamNameOf } from './clubPage.js';
import { ExportQuery, type StatsQuery } from './clubDataSchemas.js';

export interface ExportRoutesDeps {
  readModel: ReadModelReader;
  matchUrl: (matchId: string) => string;
}

/** The match list export: every match of a big club's seasons, with room to spare (one more is read to know the file is cut). */
const EXPORT_MAX_MATCHES = CSV_ROWS;

/** Export: the current filter's players and stats, and the match list, as CSV or JSON. */
export const exportRoutes: FastifyPluginAsyncTypebox<ExportRoutesDeps> = async (app, { readModel, matchUrl }) => {
  const exportTables = {
    players: async (club: ExistingClub, query: Static<typeof StatsQuery>) =>
      playersTable(playerTotalsOf(await readSeasonTotals(readModel, club.clubId, filterOf(club, query))), teamNameOf(club)),
    matches: async (club: ExistingClub, query: Static<typeof StatsQuery>) =>
      matchesTable(await readClubMatches(readModel, club.clubId, filterOf(club, query), { limit: EXPORT_MAX_MATCHES + 1 }), teamNameOf(club), matchUrl),
  };
  for (const [name, table] of Object.entries(exportTables)) {
    for (const format of ['csv', 'json'] as const) {
      app.get(`/export/${name}.${format}`, { schema: { querystring: ExportQuery } }, async (request, reply) => {
        const club = clubOf(request);
        const rows = await table(club, request.query);
        const parts = [club.name, name, request.query.season].filter((part): part is string => part !== undefined && part !== '');
        const file = `${
          parts
            .join(' ')
            .replace(/[^\p{L}\p{N}]+/gu, '-')
            .replace(/^-|-$/g, '')
            .toLowerCase() || name
        }.${format}`;
        reply.header('content-disposition', `attachment; filename="${file.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`);
        if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(toCsv(rows, request.query.dialect));
        return reply
          .type('application/json; charset=utf-8')
          .send({ columns: rows.columns, rows: toJsonRows(rows), ...(rows.omitted ? { omitted: rows.omitted } : {}) });
      });
    }
  }
};
