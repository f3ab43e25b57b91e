/**
 * Reads what the service understands of a match payload: teams, score, players and their
 * stats, play-by-play. Payloads come from many apps and are untrusted, so every read is
 * defensive: an unknown shape yields empty parts, never an exception.
 */

export interface TeamSummary {
  name: string | null;
  score: number | null;
}

export interface ScoreLine {
  label: string;
  home: number | null;
  away: number | null;
}

export interface PlayerLine {
  /** Stable identity inside the payload: playerId, else number + name, else position in the list. */
  key: string;
  playerId: string | null;
  name: string | null;
  number: string | null;
  position: string | null;
  team: string | null;
  stats: Record<string, number>;
}

export interface ActionLine {
  seq: number | null;
  phase: string | null;
  clock: string | null;
  team: string | null;
  playerId: string | null;
  description: string;
  score: string | null;
}

export interface MatchSummary {
  sport: string | null;
  home: TeamSummary;
  away: TeamSummary;
  /** What the headline score counts. */
  scoreUnit: 'sets' | 'points' | null;
  /** Score by set or period. */
  lines: ScoreLine[];
  details: { label: string; value: string }[];
  /** Club sync's grouping fields, as display text (an object gives its name, label or id). */
  season: string | null;
  category: string | null;
  competition: string | null;
  startedAt: string | null;
  players: PlayerLine[];
  actions: ActionLine[];
}

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
const first = <T>(...values: (T | null)[]): T | null => values.find((v) => v !== null) ?? null;

const LABEL_MAX = 80;

/** Display text of a field whose type the spec leaves open: text, a number, or an object's name. */
function displayText(value: unknown): string | null {
  const direct = text(value);
  if (direct !== null) return direct.slice(0, LABEL_MAX);
  if (!isObj(value)) return null;
  const named = first(text(value.name), text(value.label), text(value.title), text(value.id));
  return named === null ? null : named.slice(0, LABEL_MAX);
}

function team(value: unknown): TeamSummary {
  if (!isObj(value)) return { name: text(value), score: null };
  return {
    name: first(text(value.name), text(value.teamName), text(value.title)),
    score: first(num(value.setsWon), num(value.score), num(value.points), num(value.goals)),
  };
}

function teams(payload: Obj): { home: TeamSummary; away: TeamSummary; scoreUnit: MatchSummary['scoreUnit'] } {
  const nested = isObj(payload.teams) ? payload.teams : {};
  const home = team(payload.homeTeam ?? payload.home ?? nested.home);
  const away = team(payload.awayTeam ?? payload.away ?? nested.away);
  const score = isObj(payload.score) ? payload.score : {};
  home.score ??= num(score.home);
  away.score ??= num(score.away);
  const setsCounted = isObj(payload.homeTeam) && num(payload.homeTeam.setsWon) !== null;
  const scoreUnit = setsCounted ? 'sets' : home.score !== null || away.score !== null ? 'points' : null;
  return { home, away, scoreUnit };
}

function scoreLines(payload: Obj, actions: unknown[]): ScoreLine[] {
  const fromList = (list: unknown, word: string): ScoreLine[] =>
    Array.isArray(list)
      ? list.flatMap((entry, i) => {
          if (Array.isArray(entry)) return [{ label: `${word} ${i + 1}`, home: num(entry[0]), away: num(entry[1]) }];
          if (!isObj(entry)) return [];
          const n = first(num(entry.set), num(entry.period), num(entry.number)) ?? i + 1;
          return [{ label: `${word} ${n}`, home: num(entry.home), away: num(entry.away) }];
        })
      : [];
  const sets = fromList(payload.sets, 'Set');
  if (sets.length > 0) return sets;
  const periods = fromList(payload.periods, 'Period');
  if (periods.length > 0) return periods;
  return periodsFromActions(actions);
}

/** Points per period from running scores in the play-by-play (basketball-style payloads). */
function periodsFromActions(actions: unknown[]): ScoreLine[] {
  const lastByPeriod = new Map<number, { home: number; away: number }>();
  for (const action of actions) {
    if (!isObj(action)) continue;
    const period = num(action.period);
    const home = first(num(action.scoreHome), isObj(action.score) ? num(action.score.home) : null);
    const away = first(num(action.scoreAway), isObj(action.score) ? num(action.score.away) : null);
    if (period !== null && home !== null && away !== null) lastByPeriod.set(period, { home, away });
  }
  let before = { home: 0, away: 0 };
  return [...lastByPeriod.entries()]
    .sort(([a], [b]) => a - b)
    .map(([period, total]) => {
      const line = { label: `Period ${period}`, home: total.home - before.home, away: total.away - before.away };
      before = total;
      return line;
    });
}

const IDENTITY_FIELDS = new Set(['id', 'playerId', 'number', 'jersey', 'jerseyNumber', 'shirtNumber', 'age', 'birthYear', 'height', 'weight']);

/** Numeric leaves of a stats object; nested groups become dotted names ("attack.kills"). */
function numericStats(value: Obj, prefix = '', depth = 0): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, raw] of Object.entries(value)) {
    const name = prefix + key;
    const n = num(raw);
    if (n !== null) out[name] = n;
    else if (isObj(raw) && depth < 2) Object.assign(out, numericStats(raw, `${name}.`, depth + 1));
  }
  return out;
}

function player(entry: unknown, index: number, keyedBy: string | null): PlayerLine | null {
  if (!isObj(entry)) return null;
  const playerId = first(text(entry.playerId), text(entry.id), keyedBy);
  const name = first(text(entry.name), text(entry.playerName), [text(entry.firstName), text(entry.lastName)].filter(Boolean).join(' ') || null);
  const number = first(text(entry.number), text(entry.jersey), text(entry.jerseyNumber), text(entry.shirtNumber));
  const stats = isObj(entry.stats)
    ? numericStats(entry.stats)
    : Object.fromEntries(Object.entries(numericStats(entry)).filter(([key]) => !IDENTITY_FIELDS.has(key)));
  const key = playerId ?? (number !== null || name !== null ? `${number ?? ''}:${name ?? ''}` : `#${index}`);
  return { key, playerId, name, number, position: text(entry.position), team: first(text(entry.team), text(entry.side)), stats };
}

function players(payload: Obj): PlayerLine[] {
  const raw = payload.playerStats ?? payload.players;
  const lines = Array.isArray(raw)
    ? raw.map((entry, i) => player(entry, i, null))
    : isObj(raw)
      ? Object.entries(raw).map(([key, entry], i) => player(entry, i, key))
      : [];
  return lines.filter((line): line is PlayerLine => line !== null);
}

function action(entry: unknown): ActionLine | null {
  if (!isObj(entry)) return null;
  const setNo = num(entry.set);
  const period = num(entry.period);
  const what = [
    first(text(entry.skill), text(entry.actionType), text(entry.type), text(entry.action)),
    first(text(entry.evaluation), text(entry.shotResult), text(entry.result), text(entry.outcome)),
  ].filter((part): part is string => part !== null);
  const score = isObj(entry.score) ? entry.score : { home: entry.scoreHome, away: entry.scoreAway };
  const home = num(score.home);
  const away = num(score.away);
  return {
    seq: num(entry.seq),
    phase: setNo !== null ? `Set ${setNo}` : period !== null ? `Period ${period}` : null,
    clock: text(entry.clock),
    team: text(entry.team),
    playerId: text(entry.playerId),
    description: what.join(' ') || '—',
    score: home !== null && away !== null ? `${home}–${away}` : null,
  };
}

const DETAIL_LABELS: Record<string, string> = {
  sport: 'Sport',
  competition: 'Competition',
  season: 'Season',
  category: 'Category',
  venue: 'Venue',
  startedAt: 'Started',
  status: 'Status',
};

export function summarizeMatch(payload: unknown): MatchSummary {
  const body = isObj(payload) ? payload : {};
  const rawActions = Array.isArray(body.actions) ? body.actions : [];
  const details = Object.entries(DETAIL_LABELS).flatMap(([field, label]) => {
    const value = text(body[field]);
    return value === null ? [] : [{ label, value }];
  });
  return {
    sport: text(body.sport),
    ...teams(body),
    lines: scoreLines(body, rawActions),
    details,
    season: displayText(body.season),
    category: displayText(body.category),
    competition: displayText(body.competition),
    startedAt: first(text(body.startedAt), text(body.date), text(body.startTime)),
    players: players(body),
    actions: rawActions.map(action).filter((line): line is ActionLine => line !== null),
  };
}
