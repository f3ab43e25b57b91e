import { type Static, Type } from '@sinclair/typebox';
import { MATCH_ID_PATTERN, MATCH_ID_RULE } from '../domain/matchId.js';
import { WRITE_TOKEN_PATTERN, WRITE_TOKEN_RULE } from '../domain/writeToken.js';

export const MatchId = Type.String({ pattern: MATCH_ID_PATTERN, description: MATCH_ID_RULE, examples: ['2026-03-01-lakeside-vs-hillcrest'] });

export const MatchParams = Type.Object({ id: MatchId });

/** The upload body: any JSON object; the service reads only the fields below. */
export const MatchPayload = Type.Object(
  {
    id: Type.Optional(MatchId),
    clubId: Type.Optional(Type.Unknown({ description: 'Club to sync into (with teamId).' })),
    teamId: Type.Optional(Type.Unknown({ description: 'Team of the club (with clubId).' })),
    season: Type.Optional(Type.Unknown()),
    category: Type.Optional(Type.Unknown()),
    competition: Type.Optional(Type.Unknown()),
    playerStats: Type.Optional(Type.Unknown()),
    actions: Type.Optional(Type.Unknown()),
  },
  {
    additionalProperties: true,
    description: 'A match payload as a JSON object; stored and replaced as a whole.',
  },
);

export const WriteHeaders = Type.Object({
  'x-write-token': Type.Optional(Type.String({ pattern: WRITE_TOKEN_PATTERN, description: WRITE_TOKEN_RULE })),
  'x-app-key': Type.Optional(Type.String({ description: "The club's app key, for club sync." })),
});

export const UploadResponse = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The public page of the match.' }),
  crmSync: Type.Optional(Type.Literal('skipped_auth', { description: 'Present only when club sync was skipped for lack of valid authentication.' })),
});
export type UploadResponse = Static<typeof UploadResponse>;

export const MatchView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  revision: Type.Integer({ description: 'Stream revision of the event that last changed the match (0 when created).' }),
  versions: Type.Integer({ description: 'How many versions the match has had.' }),
  protected: Type.Boolean({ description: 'Whether updates need the X-Write-Token the match was created with.' }),
  payload: Type.Object({}, { additionalProperties: true, description: 'The payload exactly as last uploaded.' }),
});

export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String({ description: 'What went wrong and what to fix.' }),
});

export const errorResponses = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [code, { ...ErrorBody, description: 'Error' }]));
