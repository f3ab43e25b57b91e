import { Type } from '@sinclair/typebox';

/** `/c/:club` and `/c/:club/:team`: slugs as the pages link them. */
export const ClubParams = Type.Object({ club: Type.String({ maxLength: 100 }) });
export const TeamParams = Type.Object({ club: Type.String({ maxLength: 100 }), team: Type.String({ maxLength: 100 }) });
/** `?season=`: one of the team's seasons as its matches name it; the latest by default. */
export const TeamPageQuery = Type.Object({ season: Type.Optional(Type.String({ maxLength: 80, description: "one of the team's seasons" })) });
