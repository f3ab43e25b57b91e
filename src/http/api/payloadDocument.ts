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
const Text = { type: 'string' };
const open = (description: string, properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: true, description, properties });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Text, or an object whose `name` (or `label`, `title`) is read. */
const Named = { anyOf: [Text, open('Named by its name, label or title.', { name: Text, label: Text, title: Text })] };
/** A list of lines, or an object of them keyed by id (players keyed by player id). */
const listOrKeyed = (name: string) => ({
  anyOf: [
    { type: 'array', items: ref(name) },
    { type: 'object', additionalProperties: ref(name) },
  ],
});
const Lines = {
  anyOf: [{ type: 'array', items: { anyOf: [ref('ScoreLine'), { type: 'array', items: Numeric, description: '[home, away]' }] } }, Numeric],
};

const PAYLOAD_SCHEMAS = {
  Team: open('One side of the match.', {
    name: Text,
    teamCity: { type: 'string', description: 'NBA: with teamName, the full name.' },
    teamName: Text,
    shortName: { type: 'string', description: 'Shown where the full name does not fit (tricode).' },
    abbreviation: Text,
    teamTricode: Text,
    teamId: Identifier,
    id: Identifier,
    score: Numeric,
    setsWon: Numeric,
    points: Numeric,
    goals: Numeric,
    periods: { type: 'array', items: open('NBA: one period of this side.', { period: Numeric, periodType: Text, score: Numeric }) },
    players: listOrKeyed('PlayerLine'),
  }),
  ScoreLine: open('One set or period: its number and each side’s points.', { set: Numeric, period: Numeric, home: Numeric, away: Numeric }),
  PlayerLine: open("One player's line: who, which side, and their stats by name.", {
    playerId: Identifier,
    personId: Identifier,
    name: Text,
    firstName: Text,
    lastName: Text,
    familyName: Text,
    nameI: { type: 'string', description: 'NBA: the short form of the name ("J. Tatum").' },
    number: Numeric,
    jerseyNum: Numeric,
    position: Text,
    team: { type: 'string', description: '"home" or "away".' },
    starter: { anyOf: [{ type: 'boolean' }, Numeric], description: 'true, or "1" / 1 (and false, "0").' },
    lineup: { type: 'string', description: '"starting" or "bench".' },
    substitute: { type: 'boolean' },
    played: Numeric,
    notPlayingReason: Text,
    stats: { type: 'object', additionalProperties: true, description: 'Counting stats by name (kills, attackErrors, points…): numbers or numeric strings.' },
    statistics: { type: 'object', additionalProperties: true, description: 'As stats; nested groups become attack.kills.' },
  }),
  Action: open('One play-by-play action.', {
    id: Identifier,
    seq: Numeric,
    actionNumber: Numeric,
    index: Numeric,
    set: Numeric,
    period: Numeric,
    clock: { type: 'string', description: 'ISO-8601 duration (PT9M12.40S) or mm:ss.' },
    minute: Numeric,
    second: Numeric,
    team: { anyOf: [Text, open('The side by its name.', { id: Identifier, name: Text })], description: '"home", "away", or the team by name.' },
    teamId: Identifier,
    teamTricode: Text,
    location: { anyOf: [Text, { type: 'array', items: { type: 'number' } }], description: 'NBA: "h" or "v" (StatsBomb’s [x, y] is kept, not read).' },
    playerId: Identifier,
    personId: Identifier,
    player: open('The player.', { id: Identifier, name: Text }),
    playerName: Text,
    playerNameI: Text,
    type: { ...Named, description: 'What happened: "goal", "yellow card", "substitution"… or StatsBomb {name}.' },
    actionType: Text,
    subType: Text,
    skill: { type: 'string', description: 'Volleyball: serve, reception, attack, block, dig, set…' },
    evaluation: { type: 'string', description: 'Volleyball scouting code: # + ! - / =' },
    shotResult: Text,
    result: Text,
    card: Text,
    description: { type: 'string' },
    score: { anyOf: [open('The running score.', { home: Numeric, away: Numeric }), Text], description: 'The running score after the action.' },
    scoreHome: Numeric,
    scoreAway: Numeric,
  }),
  MatchPayload: open(
    'A match payload as the service reads it (docs/payload.md). Every field is optional and any other field is kept: ' +
      'the upload is stored and replaced as a whole. Any JSON object is accepted; this schema documents the recognised fields.',
    {
      id: { type: 'string', description: 'The match id; generated when omitted.' },
      clubId: { anyOf: [Text, { type: 'number' }], nullable: true, description: 'Club to sync into (with teamId).' },
      teamId: { anyOf: [Text, { type: 'number' }], nullable: true, description: 'Team of the club (with clubId).' },
      season: { description: 'Used by club sync; text, or an object with a name.' },
      category: { description: 'Used by club sync; text, or an object with a name.' },
      competition: { description: 'Used by club sync; text, or an object with a name.' },
      sport: { type: 'string', example: 'volleyball' },
      status: { type: 'string', description: 'live, in progress, final, finished, full time, scheduled…', example: 'final' },
      gameStatus: { type: 'number', description: 'NBA: 1 scheduled, 2 live, 3 final.' },
      gameStatusText: Text,
      match_status: Text,
      startedAt: { type: 'string', description: 'ISO-8601 date-time.' },
      date: { type: 'string', description: 'ISO-8601 date or date-time.' },
      startTime: Text,
      gameTimeUTC: Text,
      match_date: Text,
      kick_off: Text,
      venue: Named,
      arena: Named,
      stadium: Named,
      homeTeam: ref('Team'),
      awayTeam: ref('Team'),
      home: ref('Team'),
      away: ref('Team'),
      teams: open('The sides.', { home: ref('Team'), away: ref('Team') }),
      home_team_name: Text,
      away_team_name: Text,
      home_score: Numeric,
      away_score: Numeric,
      score: open('The score.', { home: Numeric, away: Numeric }),
      // Some apps send a count here ("periods": 4); only a list is read.
      sets: { ...Lines, description: 'The score by set: lines, or [home, away] pairs (a count is accepted and ignored).' },
      periods: { ...Lines, description: 'The score by period: lines, or [home, away] pairs (a count is accepted and ignored).' },
      playerStats: { ...listOrKeyed('PlayerLine'), description: 'A list of player lines, or an object of them keyed by player id.' },
      players: { ...listOrKeyed('PlayerLine'), description: 'As playerStats.' },
      actions: { type: 'array', items: ref('Action') },
      events: { type: 'array', items: ref('Action'), description: 'As actions (StatsBomb events).' },
      game: open('NBA live data: the game.', { homeTeam: ref('Team'), awayTeam: ref('Team'), actions: { type: 'array', items: ref('Action') } }),
    },
  ),
};

/** The examples of an upload, by name. */
const NAMED_EXAMPLES = Object.fromEntries(PAYLOAD_EXAMPLES.map((value) => [`${value.sport}`, { summary: `A ${value.sport} match (${value.status})`, value }]));

type Operation = {
  parameters?: { in?: string; name?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown; examples?: unknown; example?: unknown }> };
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
};
type Doc = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

/** X-Write-Token, not x-write-token: Fastify validates headers lower-cased, clients write them as the spec does. */
const headerCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());

const CLUB_SYNC_HEADER_DOC = {
  description:
    'Only when the payload names a club and team: how the sync was judged. processed, flagged-no-key, flagged-bad-key or skipped; ' +
    'the last three followed by "; reason=" missing_key, malformed_key, bad_key, no_such_club or no_such_team.',
  schema: { type: 'string', example: 'flagged-bad-key; reason=malformed_key' },
};

/**
 * The upload operations' request bodies and the read's `payload`, as documented: a reference to
 * `MatchPayload` (named examples on uploads); header parameters in their usual case. Only the
 * document changes; the routes validate with their own loose schema.
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
  const view = doc.paths?.['/api/matches/{id}']?.get?.responses?.['200']?.content?.['application/json']?.schema?.properties;
  if (view?.payload !== undefined) {
    view.payload = {
      allOf: [{ $ref: '#/components/schemas/MatchPayload' }],
      description: 'The payload exactly as last uploaded (or as it was at ?revision=N): typed as documented, returned as sent.',
    };
  }
  for (const operation of Object.values(doc.paths ?? {}).flatMap((methods) => Object.values(methods))) {
    for (const parameter of operation.parameters ?? []) if (parameter.in === 'header' && parameter.name) parameter.name = headerCase(parameter.name);
  }
  return document;
}
