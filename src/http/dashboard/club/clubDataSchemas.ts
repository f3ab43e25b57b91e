import { Type } from '@sinclair/typebox';
import { PageNumber } from './clubPageSchemas.js';

export const TeamQuery = Type.Object({ team: Type.Optional(Type.String({ maxLength: 64 })) });
export const MatchesQuery = Type.Object({
  team: Type.Optional(Type.String({ maxLength: 64 })),
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
