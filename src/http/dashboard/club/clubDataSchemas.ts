import { Type } from '@sinclair/typebox';
import { PageNumber } from './clubPageSchemas.js';

export const TeamQuery = Type.Object({ team: Type.Optional(Type.String({ maxLength: 64 })) });
export const MatchesQuery = Type.Object({
  team: Type.Optional(Type.String({ maxLength: 64 })),
  /** "unknown": only the matches whose side the admin must say. */
  side: Type.Optional(Type.Literal('unknown')),
  done: Type.Optional(Type.String({ maxLength: 40 })),
  page: PageNumber,
});
export const PlayerQuery = Type.Object({ team: Type.String({ maxLength: 64 }), key: Type.String({ maxLength: 300 }), page: PageNumber });
/** The stats' filter, which the exports take too. */
export const StatsQuery = Type.Object({
  team: Type.Optional(Type.String({ maxLength: 64 })),
  season: Type.Optional(Type.String({ maxLength: 100 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  competition: Type.Optional(Type.String({ maxLength: 100 })),
});
export const MatchParams = Type.Object({ matchId: Type.String({ maxLength: 200 }) });
/** The exports' query: the stats' filter, and for CSV its dialect (csvDialect.ts). */
export const ExportQuery = Type.Composite([
  StatsQuery,
  Type.Object({ dialect: Type.Optional(Type.Union([Type.Literal('comma'), Type.Literal('semicolon')])) }),
]);
