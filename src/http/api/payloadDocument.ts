import { CLUB_SYNC_HEADER } from './clubSyncHeader.js';
import { PAYLOAD_EXAMPLES } from './payloadExamples.js';

/**
 * The documented match payload, for the OpenAPI document's `components.schemas`: the fields the
 * service reads, typed, and `additionalProperties: true` everywhere, so any other field stays
 * valid. It documents; it does not validate: uploads are still checked only by `MatchPayload` in
 * ./schemas.ts (any JSON object), so what the server accepts is unchanged. Numbers may be sent
 * as numeric strings, as real feeds do.
 */
const Numeric = { anyOf: [{ type: 'number' }, { type: 'string' }], description: 'A number, or a numeric string.' };
const Identifier = { anyOf: [{ type: 'string' }, { type: 'number' }] };
const open = (description: string, properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: true, description, properties });

const PAYLOAD_SCHEMAS = {
  Team: open('One side of the match.', {
    name: { type: 'string' },
    shortName: { type: 'string', description: 'Shown where the full name does not fit (tricode).' },
    teamId: Identifier,
    id: Identifier,
    score: Numeric,
    setsWon: Numeric,
    goals: Numeric,
  }),
  ScoreLine: open('One set or period: its number and each side’s points.', { set: Numeric, period: Numeric, home: Numeric, away: Numeric }),
  PlayerLine: open("One player's line: who, which side, and their stats by name.", {
    playerId: Identifier,
    name: { type: 'string' },
    number: Numeric,
    position: { type: 'string' },
    team: { type: 'string', description: '"home" or "away".' },
    starter: { type: 'boolean' },
    stats: {
      type: 'object',
      additionalProperties: true,
      description: 'Counting stats by name (kills, attackErrors, points, fieldGoalsMade…): numbers or numeric strings.',
    },
  }),
  Action: open('One play-by-play action.', {
    id: Identifier,
    seq: Numeric,
    set: Numeric,
    period: Numeric,
    clock: { type: 'string', description: 'ISO-8601 duration (PT9M12.40S) or mm:ss.' },
    minute: Numeric,
    team: { type: 'string' },
    playerId: Identifier,
    description: { type: 'string' },
  }),
  MatchPayload: open(
    'A match payload as the service reads it (docs/payload.md). Every field is optional and any other field is kept: ' +
      'the upload is stored and replaced as a whole. Any JSON object is accepted; this schema documents the recognised fields.',
    {
      id: { type: 'string', description: 'The match id; generated when omitted.' },
      clubId: { anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true, description: 'Club to sync into (with teamId).' },
      teamId: { anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true, description: 'Team of the club (with clubId).' },
      season: { description: 'Used by club sync; any JSON value.' },
      category: { description: 'Used by club sync; any JSON value.' },
      competition: { description: 'Used by club sync; any JSON value.' },
      sport: { type: 'string', example: 'volleyball' },
      startedAt: { type: 'string', description: 'ISO-8601 date-time.' },
      homeTeam: { $ref: '#/components/schemas/Team' },
      awayTeam: { $ref: '#/components/schemas/Team' },
      home_team_name: { type: 'string' },
      away_team_name: { type: 'string' },
      home_score: Numeric,
      away_score: Numeric,
      // Some apps send a count here ("periods": 4); only a list is read.
      sets: {
        anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/ScoreLine' } }, Numeric],
        description: 'The score by set: a list of lines (a count is accepted and ignored).',
      },
      periods: {
        anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/ScoreLine' } }, Numeric],
        description: 'The score by period: a list of lines (a count is accepted and ignored).',
      },
      playerStats: { type: 'array', items: { $ref: '#/components/schemas/PlayerLine' } },
      actions: { type: 'array', items: { $ref: '#/components/schemas/Action' } },
    },
  ),
};

/** The examples of an upload, by name. */
const NAMED_EXAMPLES = Object.fromEntries(PAYLOAD_EXAMPLES.map((value) => [`${value.sport}`, { summary: `A ${value.sport} match (${value.status})`, value }]));

type Doc = {
  paths?: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: unknown; examples?: unknown; example?: unknown }> };
        responses?: Record<string, { headers?: Record<string, unknown> }>;
      }
    >
  >;
  components?: { schemas?: Record<string, unknown> };
};

const CLUB_SYNC_HEADER_DOC = {
  description:
    'Only when the payload names a club and team: how the sync was judged. processed, flagged-no-key, flagged-bad-key or skipped; ' +
    'the last three followed by "; reason=" missing_key, malformed_key, bad_key, no_such_club or no_such_team.',
  schema: { type: 'string', example: 'flagged-bad-key; reason=malformed_key' },
};

/**
 * The upload operations' request bodies, as documented: a reference to `MatchPayload` with named
 * examples. Only the document changes; the routes validate with their own loose schema.
 */
export function documentUploads<T extends object>(document: T): T {
  const doc = document as Doc;
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...PAYLOAD_SCHEMAS } };
  for (const [path, method, status] of [
    ['/api/matches', 'post', '201'],
    ['/api/matches/{id}', 'put', '200'],
  ] as const) {
    const success = doc.paths?.[path]?.[method]?.responses?.[status];
    if (success !== undefined) success.headers = { ...success.headers, [CLUB_SYNC_HEADER]: CLUB_SYNC_HEADER_DOC };
    const media = doc.paths?.[path]?.[method]?.requestBody?.content?.['application/json'];
    if (media === undefined) continue;
    media.schema = { $ref: '#/components/schemas/MatchPayload' };
    delete media.example;
    media.examples = NAMED_EXAMPLES;
  }
  return document;
}
