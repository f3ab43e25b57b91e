import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { MATCH_ID_PATTERN, MATCH_ID_RULE } from '../../domain/matchId.js';
import { WRITE_TOKEN_RULE } from '../../domain/writeToken.js';
import { Revision } from '../querySchemas.js';
import { Receipt } from './logSchemas.js';

const MatchId = Type.String({ pattern: MATCH_ID_PATTERN, description: MATCH_ID_RULE, examples: ['2026-03-01-lakeside-vs-hillcrest'] });

export const MatchParams = Type.Object({ id: MatchId });

/**
 * The upload body as validated: any JSON object (only id, clubId and teamId are checked).
 * Documented as `components.schemas.MatchPayload` (./payloadDocument.ts).
 */
export const MatchPayload = Type.Object(
  {
    id: Type.Optional(MatchId),
    clubId: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Null()], {
        description: 'Club to sync into (with teamId): a string or number; null or blank means none.',
      }),
    ),
    teamId: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Null()], { description: 'Team of the club (with clubId): a string or number; null or blank means none.' }),
    ),
    season: Type.Optional(Type.Unknown()),
    category: Type.Optional(Type.Unknown()),
    competition: Type.Optional(Type.Unknown()),
    playerStats: Type.Optional(Type.Unknown()),
    actions: Type.Optional(Type.Unknown()),
  },
  {
    additionalProperties: true,
    description:
      'A match payload as a JSON object; stored and replaced as a whole. Any object is accepted. The public page reads ' +
      'teams and score (homeTeam/awayTeam with name, setsWon or score; or home_team_name/home_score), sets or periods, ' +
      'playerStats (name, number, team, stats), actions (play-by-play), sport, status, venue, startedAt; numbers may be ' +
      'numeric strings, clocks ISO-8601 durations. NBA live-data feeds ({game: {homeTeam, awayTeam, actions}}) are read too. See docs/payload.md.',
  },
);

export const WriteHeaders = Type.Object({
  // No pattern here: the format matters only where the token is bound (the decider checks it there).
  'x-write-token': Type.Optional(
    Type.String({
      description:
        `Binds on the creating POST, where ${WRITE_TOKEN_RULE}. ` +
        'Elsewhere only compared: any other value on a protected match is a 403; ignored on unprotected matches and PUT-create.',
    }),
  ),
  'x-app-key': Type.Optional(Type.String({ description: "The club's app key, for club sync." })),
});

export const UploadResponse = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The public page of the match.' }),
  crmSync: Type.Optional(Type.Literal('skipped_auth', { description: 'Present only when club sync was skipped for lack of valid authentication.' })),
  receipt: Type.Optional(Receipt),
});
export type UploadResponse = Static<typeof UploadResponse>;

export const MatchView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  revision: Type.Integer({ description: 'Stream revision of the event that last changed the match (0 when created).' }),
  versions: Type.Optional(Type.Integer({ description: 'How many versions the match has had (not given for ?revision=N).' })),
  protected: Type.Boolean({ description: 'Whether updates need the X-Write-Token the match was created with.' }),
  payload: Type.Object({}, { additionalProperties: true, description: 'The payload exactly as last uploaded (or as it was at ?revision=N).' }),
});

const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String({ description: 'What went wrong and what to fix.' }),
});

export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, { ...ErrorBody, description: 'Error' }]));

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NumberChange = Type.Object({ from: Nullable(Type.Number()), to: Nullable(Type.Number()) });
const FieldValueSchema = (description: string) => Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], { description });

const MatchDiffSchema = Type.Object(
  {
    score: Nullable(Type.Object({ home: NumberChange, away: NumberChange })),
    teams: Type.Array(
      Type.Object({ side: Type.Union([Type.Literal('home'), Type.Literal('away')]), from: Nullable(Type.String()), to: Nullable(Type.String()) }),
      {
        description: 'Team names that changed.',
      },
    ),
    players: Type.Array(
      Type.Object({
        player: Type.String(),
        change: Type.Union([Type.Literal('renamed'), Type.Literal('renumbered')]),
        from: Nullable(Type.String()),
        to: Nullable(Type.String()),
      }),
      { description: 'Players renamed or given another shirt number.' },
    ),
    lines: Type.Array(Type.Object({ label: Type.String(), home: NumberChange, away: NumberChange })),
    stats: Type.Array(Type.Object({ player: Type.String(), stat: Type.String(), from: Nullable(Type.Number()), to: Nullable(Type.Number()) })),
    actions: Type.Object({
      before: Type.Integer(),
      after: Type.Integer(),
      added: Type.Integer(),
      removed: Type.Integer(),
      changed: Type.Integer(),
      edited: Type.Optional(
        Type.Array(Type.Integer(), { description: "Where the first 5 edited actions are in this version's actions (0-based); the rest are counted." }),
      ),
    }),
    fields: Type.Array(
      Type.Object({
        field: Type.String(),
        change: Type.String(),
        from: Type.Optional(FieldValueSchema('The value before, when a number, true, false, null or text of at most 80 characters.')),
        to: Type.Optional(FieldValueSchema('The value after, likewise.')),
      }),
      { description: 'Other top-level fields added, removed or changed.' },
    ),
    omitted: Type.Integer({ description: 'Changes left out of the lists above (each holds at most 100).' }),
    summary: Type.String({ description: 'The diff in one readable line.' }),
  },
  { description: 'What changed from the previous version.' },
);

export const HistoryEntrySchema = Type.Object({
  revision: Type.Integer(),
  position: Type.Integer({ description: 'Place in the global log.' }),
  type: Type.String({ examples: ['MatchCreated', 'MatchReplaced'] }),
  recordedAt: Type.String({ format: 'date-time' }),
  requestId: Nullable(Type.String()),
  clientAddressClass: Nullable(Type.String({ description: 'loopback, private or public; never the address.' })),
  via: Type.Optional(Type.Union([Type.Literal('POST'), Type.Literal('PUT')])),
  protection: Type.Optional(Type.Union([Type.Literal('protected'), Type.Literal('unprotected')])),
  version: Type.Optional(Type.String({ description: "This version's full payload: GET this URL (/api/matches/:id?revision=N)." })),
  diff: Type.Optional(Nullable(MatchDiffSchema)),
  details: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Public fields of other events.' })),
  logIndex: Type.Optional(
    Type.Integer({ description: "The event's leaf in the transparency log: GET /api/log/entries/{logIndex} and its inclusion proof (docs/auditing.md)." }),
  ),
});

export const HistoryQuerySchema = Type.Object({
  order: Type.Optional(
    Type.Union([Type.Literal('oldest'), Type.Literal('newest')], { default: 'oldest', description: 'oldest first (default) or newest first' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'events per page, 1-100' })),
  from: Type.Optional(Revision("first revision of the page, from the previous page's `next`")),
});

export const HistoryResponse = Type.Object({
  id: Type.String(),
  url: Type.String(),
  protected: Type.Boolean({ description: 'When true, every write after creation was made with the match’s write token.' }),
  head: Type.Integer({ description: 'The newest revision.' }),
  next: Nullable(
    Type.Integer({ description: 'Pass as `from` for the next page; null on the last page. Pages end early to stay under 1 MiB and a bounded amount of work.' }),
  ),
  entries: Type.Array(HistoryEntrySchema),
});

export const RevisionQuery = Type.Object({
  revision: Type.Optional(Revision('Show the match as it was at this revision (from the log).')),
});
