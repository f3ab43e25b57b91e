import { type JsonSelection, selectJson, selectJsonAfter, type SkippedValues } from './jsonSelect.js';
import { type LiveDetails, liveDetails } from './liveDetails.js';
import { actionWords, type FootballEvent, footballEvent, sportOf } from './statVocabulary.js';

/**
 * Reads what the service understands of a match payload: teams, score, players and their
 * stats, play-by-play. Payloads come from many apps and are untrusted, so every read is
 * defensive: an unknown shape yields empty parts, never an exception.
 *
 * Shapes recognised (docs/payload.md): matchlog's own (`homeTeam`/`awayTeam`, `sets` or
 * `periods`, `playerStats`, `actions`), NBA live data (`game.homeTeam.players[].statistics`,
 * `game.actions`, `periods[]`), and flat StatsBomb-style (`home_team_name`, `home_score`).
 * Numbers may come as numeric strings ("116"), clocks as ISO-8601 durations (`PT11M43.00S`).
 */

export interface TeamSummary {
  name: string | null;
  score: number | null;
  /** A short name for narrow screens (tricode or abbreviation), when the payload has one. */
  short?: string | null;
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
  /** In the starting line-up (true), on the bench (false), or not said. */
  starter: boolean | null;
  /** The feed's own short form of the name ("T. Haliburton"), when it has one. */
  shortName: string | null;
  /** The feed's own box-score order (NBA `order`), when it gives one. */
  order?: number | null;
  /** Why a listed player did not play ("DNP — coach's decision"): NBA `played: "0"` with `notPlayingReason`. */
  notPlaying?: string | null;
}

export interface ActionLine {
  seq: number | null;
  phase: string | null;
  /** Game clock as m:ss (durations like PT11M43.00S are converted). */
  clock: string | null;
  team: string | null;
  playerId: string | null;
  /** The player's name as the action itself gives it (NBA play-by-play, StatsBomb events), when it does. */
  playerName: string | null;
  /** Football: a goal, own goal or card (for the scorers under the score and the step chart). */
  event: FootballEvent | null;
  /** Readable words for what happened ("Attack: kill"), scouting codes given words. */
  description: string;
  score: string | null;
}

/**
 * What the charts and the play-by-play's counts read of every action, without wording it: its
 * set or period, the running score its line shows as "home–away" in whole numbers (else both
 * null), and whether its line has a clock.
 */
export interface ActionMark {
  phase: string | null;
  home: number | null;
  away: number | null;
  clocked: boolean;
}

export type MatchStatus = 'scheduled' | 'live' | 'final';

export interface MatchSummary {
  sport: string | null;
  home: TeamSummary;
  away: TeamSummary;
  /** What the headline score counts. */
  scoreUnit: 'sets' | 'points' | 'goals' | null;
  /** Score by set or period. */
  lines: ScoreLine[];
  details: { label: string; value: string }[];
  /** Club sync's grouping fields, as display text (an object gives its name, label or id). */
  season: string | null;
  category: string | null;
  competition: string | null;
  startedAt: string | null;
  players: PlayerLine[];
  /**
   * The play-by-play as lines, worded on the first call (writes need only actionCount). A
   * function, not a getter: V8 keeps an accessor in the object's hidden class, which lives in
   * the old generation, so a getter closing over the payload held every parsed payload until
   * the next full collection (docs/performance/steps.md, step 33).
   */
  readonly actions: () => ActionLine[];
  /** The line of action `index` (0 ≤ index < actionCount), worded on first ask: a page words the rows it shows, not the whole list. */
  readonly actionAt: (index: number) => ActionLine;
  /** Every action's mark, in order: ~8× cheaper to make than wording them all (36,000 actions: ~4 against ~35 ms). */
  readonly actionMarks: () => ActionMark[];
  actionCount: number;
  status?: MatchStatus | null;
  /** The status as the payload words it ("Q3 5:12", "Final"). */
  statusText?: string | null;
  venue?: string | null;
  /** Label of the set or period being played, while live. */
  current?: string | null;
  /** Whether anything at all was understood (teams, score, lines, players or actions). */
  recognised?: boolean;
  /** While live: the game clock or minute, fouls, bonus, timeouts, serving side (liveDetails.ts). */
  live?: LiveDetails | null;
}

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;
/** A finite number, or a string holding one ("116"): real feeds send both. */
const num = (value: unknown): number | null =>
  typeof value === 'number' ? (Number.isFinite(value) ? value : null) : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : null;
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
const first = <T>(...values: (T | null)[]): T | null => values.find((v) => v !== null) ?? null;
const obj = (value: unknown): Obj => (isObj(value) ? value : {});

const LABEL_MAX = 80;
const ISO_DURATION = /^P(?:(\d+(?:\.\d+)?)D)?T?(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/;

/** Seconds in an ISO-8601 duration (`PT11M43.00S` → 703), or null when it is not one. */
export function durationSeconds(value: string): number | null {
  const m = ISO_DURATION.exec(value.trim());
  if (m === null || value.trim() === 'P' || value.trim() === 'PT') return null;
  const [, d, h, min, s] = m.map((part) => (part === undefined ? 0 : Number(part)));
  return (d ?? 0) * 86400 + (h ?? 0) * 3600 + (min ?? 0) * 60 + (s ?? 0);
}

/** Seconds as m:ss ("11:43"); minutes run past 60 rather than adding hours, as game clocks do. */
export function formatClockSeconds(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A clock as shown: durations become m:ss, "11:43" stays, anything else is kept short. */
function clock(value: unknown): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const seconds = durationSeconds(raw);
  return seconds === null ? raw.slice(0, 16) : formatClockSeconds(seconds);
}

/** Display text of a field whose type the spec leaves open: text, a number, or an object's name. */
function displayText(value: unknown): string | null {
  const direct = text(value);
  if (direct !== null) return direct.slice(0, LABEL_MAX);
  if (!isObj(value)) return null;
  const named = first(text(value.name), text(value.label), text(value.title), text(value.competition_name), text(value.season_name), text(value.id));
  return named === null ? null : named.slice(0, LABEL_MAX);
}

function team(value: unknown): TeamSummary {
  if (!isObj(value)) return { name: text(value), score: null, short: null };
  const city = text(value.teamCity);
  const nbaName = text(value.teamName);
  return {
    name: first(text(value.name), city !== null && nbaName !== null ? `${city} ${nbaName}` : nbaName, text(value.title)),
    score: first(num(value.setsWon), num(value.score), num(value.points), num(value.goals)),
    short: first(text(value.shortName), text(value.abbreviation), text(value.teamTricode), text(value.tricode), text(value.code)),
  };
}

/** Where the game lives: the payload itself, or NBA live data's `game` wrapper. */
function gameOf(payload: Obj): Obj {
  return isObj(payload.game) && (isObj(payload.game.homeTeam) || Array.isArray(payload.game.actions)) ? { ...payload, ...payload.game } : payload;
}

function teams(g: Obj): { home: TeamSummary; away: TeamSummary; scoreUnit: MatchSummary['scoreUnit'] } {
  const nested = obj(g.teams);
  const home = team(g.homeTeam ?? g.home ?? nested.home ?? g.home_team);
  const away = team(g.awayTeam ?? g.away ?? nested.away ?? g.away_team);
  // StatsBomb: home_team_name at the top or inside home_team; home_score beside it.
  home.name ??= first(text(g.home_team_name), text(obj(g.home_team).home_team_name));
  away.name ??= first(text(g.away_team_name), text(obj(g.away_team).away_team_name));
  const score = obj(g.score);
  home.score ??= first(num(score.home), num(g.home_score), num(g.homeScore));
  away.score ??= first(num(score.away), num(g.away_score), num(g.awayScore));
  const setsCounted = isObj(g.homeTeam) && num(g.homeTeam.setsWon) !== null;
  const goals = 'home_score' in g || (isObj(g.homeTeam) && num(g.homeTeam.goals) !== null);
  const scoreUnit = setsCounted ? 'sets' : home.score === null && away.score === null ? null : goals ? 'goals' : 'points';
  return { home, away, scoreUnit };
}

/** How a sport names its periods: Q1 in basketball, 1st half in football, Period 1 elsewhere. */
function periodLabel(sport: string | null, n: number): string {
  const kind = sport?.toLowerCase() ?? '';
  if (kind === 'basketball') return n <= 4 ? `Q${n}` : `OT${n - 4 > 1 ? n - 4 : ''}`;
  if (kind === 'football' || kind === 'soccer') return n === 1 ? '1st half' : n === 2 ? '2nd half' : n <= 4 ? `Extra time ${n - 2}` : 'Penalties';
  return `Period ${n}`;
}

function scoreLines(g: Obj, actions: unknown[], sport: string | null): ScoreLine[] {
  const fromList = (list: unknown, label: string): ScoreLine[] =>
    Array.isArray(list)
      ? list.flatMap((entry, i) => {
          if (Array.isArray(entry)) return [{ label: `${label} ${i + 1}`, home: num(entry[0]), away: num(entry[1]) }];
          if (!isObj(entry)) return [];
          const n = first(num(entry.set), num(entry.period), num(entry.number)) ?? i + 1;
          return [{ label: `${label} ${n}`, home: num(entry.home), away: num(entry.away) }];
        })
      : [];
  const sets = fromList(g.sets, 'Set');
  if (sets.length > 0) return sets;
  const periods = fromList(g.periods, 'Period').map((line, i) => ({ ...line, label: periodLabel(sport, Number(line.label.slice(7)) || i + 1) }));
  if (periods.length > 0) return periods;
  const nba = periodsFromTeams(g);
  if (nba.length > 0) return nba;
  return periodsFromActions(actions, sport);
}

/** NBA live data: each team carries `periods: [{period, periodType, score}]`. */
function periodsFromTeams(g: Obj): ScoreLine[] {
  const list = (side: unknown) => (isObj(side) && Array.isArray(side.periods) ? side.periods.filter(isObj) : []);
  const home = list(g.homeTeam);
  const away = list(g.awayTeam);
  const count = Math.max(home.length, away.length);
  const lines: ScoreLine[] = [];
  let overtime = 0;
  for (let i = 0; i < count; i += 1) {
    const h = home[i] ?? {};
    const a = away[i] ?? {};
    const n = first(num(h.period), num(a.period)) ?? i + 1;
    const type = first(text(h.periodType), text(a.periodType));
    const label = type === 'OVERTIME' ? `OT${++overtime > 1 ? overtime : ''}` : `Q${n}`;
    lines.push({ label, home: num(h.score), away: num(a.score) });
  }
  return lines;
}

/** Points per period from running scores in the play-by-play (basketball-style payloads). */
function periodsFromActions(actions: unknown[], sport: string | null): ScoreLine[] {
  const lastByPeriod = new Map<number, { home: number; away: number }>();
  for (const entry of actions) {
    if (!isObj(entry)) continue;
    const period = num(entry.period);
    const { home, away } = actionScore(entry);
    if (period !== null && home !== null && away !== null) lastByPeriod.set(period, { home, away });
  }
  let before = { home: 0, away: 0 };
  return [...lastByPeriod.entries()]
    .sort(([a], [b]) => a - b)
    .map(([period, total]) => {
      const line = { label: periodLabel(sport, period), home: total.home - before.home, away: total.away - before.away };
      before = total;
      return line;
    });
}

const IDENTITY_FIELDS = new Set([
  'id',
  'playerId',
  'personId',
  'player_id',
  'jersey_number',
  'number',
  'jersey',
  'jerseyNum',
  'jerseyNumber',
  'shirtNumber',
  'age',
  'birthYear',
  'height',
  'weight',
  'order',
  'starter',
  'oncourt',
  'played',
]);

/**
 * Numeric leaves of a stats object, but its own fields in `skip`; nested groups become dotted
 * names ("attack.kills"); durations become minutes.
 */
function numericStats(value: Obj, skip: ReadonlySet<string> | null = null, out: Record<string, number> = {}, prefix = '', depth = 0): Record<string, number> {
  for (const [key, raw] of Object.entries(value)) {
    if (skip?.has(key) === true) continue;
    const name = prefix + key;
    const n = num(raw);
    const seconds = n === null && typeof raw === 'string' ? durationSeconds(raw) : null;
    if (n !== null) out[name] = n;
    else if (seconds !== null) out[name] = Math.round((seconds / 60) * 100) / 100;
    else if (isObj(raw) && depth < 2) numericStats(raw, null, out, `${name}.`, depth + 1);
  }
  return out;
}

/** Whether every field of a stats object is a finite number, as most apps send them: it is then its own stats. */
function allNumbers(value: Obj): value is Record<string, number> {
  for (const key in value) {
    const field = value[key];
    if (typeof field !== 'number' || !Number.isFinite(field)) return false;
  }
  return true;
}

/** A player's stats: the payload's own stats object when it is all numbers (not copied; never to be changed), else its numeric leaves. */
const statsOf = (source: Obj): Record<string, number> => (allNumbers(source) ? source : numericStats(source));

function player(entry: unknown, index: number, keyedBy: string | null, side: string | null): PlayerLine | null {
  if (!isObj(entry)) return null;
  const playerId = first(text(entry.playerId), text(entry.personId), text(entry.player_id), text(entry.id), keyedBy);
  const fullName = [text(entry.firstName), first(text(entry.lastName), text(entry.familyName))].filter(Boolean).join(' ') || null;
  const name = first(text(entry.name), text(entry.playerName), text(entry.player_name), fullName);
  const number = first(
    text(entry.number),
    text(entry.jersey),
    text(entry.jerseyNum),
    text(entry.jerseyNumber),
    text(entry.shirtNumber),
    text(entry.jersey_number),
  );
  const statsSource = isObj(entry.stats) ? entry.stats : isObj(entry.statistics) ? entry.statistics : null;
  const stats = statsSource !== null ? statsOf(statsSource) : numericStats(entry, IDENTITY_FIELDS);
  const key = playerId ?? (number !== null || name !== null ? `${number ?? ''}:${name ?? ''}` : `#${index}`);
  const position = first(text(entry.position), displayText(entry.position));
  return {
    key,
    playerId,
    name,
    number,
    position,
    team: first(text(entry.team), text(entry.side), side),
    stats,
    starter: starterOf(entry),
    shortName: text(entry.nameI),
    order: num(entry.order),
    notPlaying: notPlayingOf(entry),
  };
}

/**
 * Why a player did not play, as a box score says it: NBA `played: "0"` (or `didNotPlay: true`)
 * with `notPlayingReason` and `notPlayingDescription`: "DNP — coach's decision", "Inactive —
 * injury, Left Ankle; Sprain", "DNP" without a reason; null for a player who played.
 */
function notPlayingOf(entry: Obj): string | null {
  const reason = text(entry.notPlayingReason) ?? text(entry.dnpReason);
  const didNot = entry.played === '0' || entry.played === 0 || entry.played === false || entry.didNotPlay === true || entry.dnp === true;
  if (!didNot && reason === null) return null;
  const description = text(entry.notPlayingDescription);
  const worded =
    reason === null
      ? ''
      : /^dnp[_ ]coach/i.test(reason)
        ? "coach's decision"
        : reason
            .replace(/^(dnp|inactive|nwt)[_ -]*/i, '')
            .replace(/_/g, ' ')
            .toLowerCase();
  const what = [worded, description].filter(Boolean).join(', ');
  const head = reason !== null && /^inactive/i.test(reason) ? 'Inactive' : 'DNP';
  return `${head}${what ? ` — ${what}` : ''}`.slice(0, LABEL_MAX);
}

/** Whether a player started: `starter` ("1", true), `isStarter`, `lineup: "starting" | "bench"`, or `substitute: true`. */
function starterOf(entry: Obj): boolean | null {
  const flag = entry.starter ?? entry.isStarter ?? entry.starting;
  if (typeof flag === 'boolean') return flag;
  if (flag === 1 || flag === '1' || flag === 'true') return true;
  if (flag === 0 || flag === '0' || flag === 'false') return false;
  const lineup = text(entry.lineup)?.toLowerCase() ?? null;
  if (lineup !== null && /^(start|starting|starter|xi)/.test(lineup)) return true;
  if (lineup !== null && /^(bench|sub)/.test(lineup)) return false;
  return entry.substitute === true ? false : null;
}

function players(g: Obj): PlayerLine[] {
  const raw = g.playerStats ?? g.players;
  const lines = Array.isArray(raw)
    ? raw.map((entry, i) => player(entry, i, null, null))
    : isObj(raw)
      ? Object.entries(raw).map(([key, entry], i) => player(entry, i, key, null))
      : [];
  // NBA live data: players inside each team.
  for (const side of ['home', 'away'] as const) {
    const teamObj = obj(g[`${side}Team`]);
    if (Array.isArray(teamObj.players)) lines.push(...teamObj.players.map((entry, i) => player(entry, i, null, side)));
  }
  return lines.filter((line): line is PlayerLine => line !== null);
}

function actionScore(entry: Obj): { home: number | null; away: number | null } {
  const score = isObj(entry.score) ? entry.score : {};
  return { home: first(num(score.home), num(entry.scoreHome), num(entry.homeScore)), away: first(num(score.away), num(entry.scoreAway), num(entry.awayScore)) };
}

/** Which side an action belongs to: its own `team`, or an NBA team id / tricode matched to a side. */
function actionTeam(entry: Obj, sides: Map<string, string>): string | null {
  const own = first(text(entry.team), isObj(entry.team) ? text(entry.team.name) : null);
  if (own !== null) return sides.get(own) ?? own;
  // NBA play-by-play: "h" for the home side, "v" for the visitors.
  const location = text(entry.location);
  if (location === 'h' || location === 'v') return location === 'h' ? 'home' : 'away';
  const byId = first(text(entry.teamTricode), text(entry.teamId));
  return byId === null ? null : (sides.get(byId) ?? byId);
}

/** The set or period an action belongs to ("Set 2", "Q3"), or null. */
function phaseOf(entry: Obj, sport: string | null): string | null {
  const setNo = num(entry.set);
  const period = num(entry.period);
  return setNo !== null ? `Set ${setNo}` : period !== null ? periodLabel(sport, period) : null;
}

/** The phase of the last action that has one: the set or period being played. */
function lastPhase(entries: unknown[], sport: string | null): string | null {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    const phase = isObj(entry) ? phaseOf(entry, sport) : null;
    if (phase !== null) return phase;
  }
  return null;
}

/** How many of the play-by-play's entries are actions (objects), counted without copying the list. */
function countActions(entries: unknown[]): number {
  let count = 0;
  for (const entry of entries) if (isObj(entry)) count += 1;
  return count;
}

/**
 * A football minute mark as broadcasters show it: the minute being played (StatsBomb's `minute`
 * counts minutes elapsed, so 65:42 is 66'), stoppage time after each half's end ("45+2'").
 * Without `second`, `minute` is taken as the mark itself.
 */
function minuteMark(minute: number, second: number | null, period: number | null): string {
  const m = second === null ? minute : Math.floor(minute) + 1;
  const end = period === 1 ? 45 : period === 2 ? 90 : period === 3 ? 105 : period === 4 ? 120 : null;
  return end !== null && m > end ? `${end}+${m - end}'` : `${m}'`;
}

const isFootball = (sport: string | null) => /^(football|soccer|futsal)$/i.test(sport ?? '');

/** `football`: isFootball(sport), asked once for a whole play-by-play. */
function action(entry: Obj, sport: string | null, football: boolean, sides: Map<string, string>): ActionLine {
  const { home, away } = actionScore(entry);
  const described = text(entry.description);
  const minute = num(entry.minute);
  const person = obj(entry.player);
  // NBA files team actions under personId 0.
  const personId = text(entry.personId) === '0' ? null : text(entry.personId);
  const event = football ? footballEvent(entry) : null;
  return {
    seq: first(num(entry.seq), num(entry.actionNumber), num(entry.orderNumber), num(entry.index)),
    phase: phaseOf(entry, sport),
    clock: first(
      minute !== null && football ? minuteMark(minute, num(entry.second), num(entry.period)) : null,
      clock(entry.clock),
      minute !== null ? `${minute}'` : null,
    ),
    team: actionTeam(entry, sides),
    playerId: first(text(entry.playerId), personId, text(person.id)),
    playerName: first(text(entry.playerNameI), text(entry.playerName), text(person.name), text(entry.player_name))?.slice(0, LABEL_MAX) ?? null,
    event,
    // A goal or card reads as football says it ("Goal"), whatever the feed's own words.
    description: event !== null ? actionWords(sport, entry) : (described?.slice(0, 200) ?? actionWords(sport, entry)),
    score: home !== null && away !== null ? `${home}–${away}` : null,
  };
}

/** A score as a line's "home–away" shows it when whole (digits only), or null. */
const wholeScore = (n: number | null) => (n !== null && Number.isInteger(n) && n >= 0 && n < 1e21 ? n + 0 : null);

/**
 * The action's mark: what its line says of its phase, running score and clock, read as `action`
 * reads them. `phases` gives one string per phase, so a list's marks hold each phase's name once.
 */
function mark(entry: Obj, sport: string | null, phases: Map<string, string>): ActionMark {
  const score = actionScore(entry);
  const home = wholeScore(score.home);
  const away = wholeScore(score.away);
  const both = home !== null && away !== null;
  const phase = phaseOf(entry, sport);
  let shared = phase === null ? null : phases.get(phase);
  if (phase !== null && shared === undefined) {
    shared = phase;
    phases.set(phase, phase);
  }
  return { phase: shared ?? null, home: both ? home : null, away: both ? away : null, clocked: num(entry.minute) !== null || text(entry.clock) !== null };
}

/** A running score as a line shows it ("8–6"), its sides captured. */
export const RUNNING_SCORE = /^(\d+)–(\d+)$/;

/** The mark of an action worded already: the same as from its entry. */
function markOfLine(line: ActionLine): ActionMark {
  const m = line.score === null ? null : RUNNING_SCORE.exec(line.score);
  return { phase: line.phase, home: m === null ? null : Number(m[1]), away: m === null ? null : Number(m[2]), clocked: line.clock !== null };
}

/** Keys that map NBA team ids and tricodes (and our own side names) to 'home' / 'away'. */
function sideKeys(g: Obj, names: { home: TeamSummary; away: TeamSummary }): Map<string, string> {
  const map = new Map<string, string>();
  for (const side of ['home', 'away'] as const) {
    const t = obj(g[`${side}Team`]);
    // StatsBomb events name their team (`team.name`), as home_team_name does.
    for (const key of [text(t.teamId), text(t.teamTricode), text(t.id), names[side].name, names[side].short ?? null]) if (key !== null) map.set(key, side);
  }
  return map;
}

/**
 * NBA play-by-play on its own (no box score): each side's tricode from the actions' `location`
 * ("h" or "v") and `teamTricode`, the score from the last running score. Reads only until both
 * tricodes are found, and the list backwards until a score is.
 */
function teamsFromActions(entries: unknown[], sides: { home: TeamSummary; away: TeamSummary }): void {
  if (sides.home.name === null && sides.away.name === null) {
    for (const entry of entries) {
      if (!isObj(entry)) continue;
      const location = text(entry.location);
      const tricode = text(entry.teamTricode);
      if (tricode === null || (location !== 'h' && location !== 'v')) continue;
      const side = location === 'h' ? sides.home : sides.away;
      side.name ??= tricode;
      side.short ??= tricode;
      if (sides.home.name !== null && sides.away.name !== null) break;
    }
  }
  if (sides.home.score !== null || sides.away.score !== null) return;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (!isObj(entry)) continue;
    const { home, away } = actionScore(entry);
    if (home !== null && away !== null) {
      sides.home.score = home;
      sides.away.score = away;
      return;
    }
  }
}

const STATUS_WORDS: [RegExp, MatchStatus][] = [
  [/^(final|finished|ended|complete|completed|full[ -]?time|ft|closed|over|played)\b/i, 'final'],
  [/^(scheduled|upcoming|not[ _-]?started|pre[ -]?game|planned|fixture)\b/i, 'scheduled'],
  [/^(live|in[ _-]?progress|inprogress|playing|started|ongoing|halftime|half[ -]?time|q\d|\d(st|nd|rd|th)\b|ot)/i, 'live'],
];

function status(g: Obj): { status: MatchStatus | null; statusText: string | null } {
  const words = first(text(g.status), text(g.gameStatusText), text(g.match_status), text(g.state));
  const code = num(g.gameStatus);
  const fromCode: MatchStatus | null = code === 1 ? 'scheduled' : code === 2 ? 'live' : code === 3 ? 'final' : null;
  const fromWords = words === null ? null : (STATUS_WORDS.find(([pattern]) => pattern.test(words.trim()))?.[1] ?? null);
  return { status: first(fromCode, fromWords), statusText: words?.trim().slice(0, 40) ?? null };
}

const DETAIL_LABELS: Record<string, string> = {
  competition: 'Competition',
  season: 'Season',
  category: 'Category',
};

function venue(g: Obj): string | null {
  const arena = obj(g.arena);
  const arenaName = text(arena.arenaName);
  return first(
    displayText(g.venue),
    arenaName === null ? null : [arenaName, text(arena.arenaCity)].filter(Boolean).join(', '),
    displayText(g.stadium),
    displayText(g.location),
  );
}

function startedAt(g: Obj): string | null {
  const date = text(g.match_date);
  const kickOff = text(g.kick_off);
  return first(text(g.startedAt), text(g.date), text(g.startTime), text(g.gameTimeUTC), date !== null && kickOff !== null ? `${date}T${kickOff}` : date);
}

/** Longest team name a public view keeps for titles. */
const TEAM_NAME_MAX = 200;

/** A match's team names, as a public view keeps them. */
export interface TeamNames {
  home: string | null;
  away: string | null;
}

/**
 * The team names summarizeMatch would give (cut to TEAM_NAME_MAX), reading only the fields
 * that name teams: no copy of the payload's top level, whatever its width.
 */
export function matchTeamNames(payload: unknown): TeamNames {
  const body = isObj(payload) ? payload : {};
  const inner = isObj(body.game) && (isObj(body.game.homeTeam) || Array.isArray(body.game.actions)) ? body.game : {};
  const fields = ['homeTeam', 'awayTeam', 'home', 'away', 'teams', 'home_team', 'away_team', 'home_team_name', 'away_team_name', 'score'] as const;
  const g: Obj = {};
  for (const field of fields) {
    if (Object.hasOwn(inner, field)) g[field] = inner[field];
    else if (Object.hasOwn(body, field)) g[field] = body[field];
  }
  const { home, away } = teams(g);
  return { home: home.name?.slice(0, TEAM_NAME_MAX) ?? null, away: away.name?.slice(0, TEAM_NAME_MAX) ?? null };
}

/** All matchTeamNames reads of a payload: where the game lives and the fields that name its teams. */
const TEAM_NAMING: JsonSelection = { name: true, teamCity: true, teamName: true, title: true, home_team_name: true, away_team_name: true };
const SIDES_NAMING = {
  homeTeam: TEAM_NAMING,
  awayTeam: TEAM_NAMING,
  home: TEAM_NAMING,
  away: TEAM_NAMING,
  teams: { home: TEAM_NAMING, away: TEAM_NAMING },
  home_team: TEAM_NAMING,
  away_team: TEAM_NAMING,
  home_team_name: true,
  away_team_name: true,
} as const;
const TEAM_NAMES_OF_TEXT: JsonSelection = { ...SIDES_NAMING, game: { ...SIDES_NAMING, actions: 'kind' } };

/** matchTeamNames of a payload's JSON text, without building the rest of it (a projection rebuilt over many versions). */
export const matchTeamNamesOfText = (payload: string) => matchTeamNames(selectJson(payload, TEAM_NAMES_OF_TEXT));

/**
 * matchTeamNamesOfText, given what its scan of the match's previous version skipped (the same
 * names whatever `earlier` is): a live match's play-by-play, which a version repeats and extends,
 * is compared with the previous one's instead of scanned. Also what this scan skipped, for the next.
 */
export function matchTeamNamesAfter(payload: string, earlier: SkippedValues | null): { names: ReturnType<typeof matchTeamNames>; skipped: SkippedValues } {
  const { value, skipped } = selectJsonAfter(payload, TEAM_NAMES_OF_TEXT, earlier);
  return { names: matchTeamNames(value), skipped };
}

/**
 * Every field summarizeMatch reads of a game (the payload, or NBA live data's `game` merged over
 * it), taken whole. A field read here must be listed: test/domain/matchPayload.property.test.ts
 * checks the text's summary against the parsed payload's.
 */
const SUMMARY_FIELDS = [
  ...['game', 'actions', 'events', 'sport', 'gameTimeUTC', 'sets', 'periods', 'playerStats', 'players', 'period'],
  ...['homeTeam', 'awayTeam', 'home', 'away', 'teams', 'home_team', 'away_team', 'home_team_name', 'away_team_name'],
  ...['score', 'home_score', 'homeScore', 'away_score', 'awayScore'],
  ...['status', 'gameStatusText', 'match_status', 'state', 'gameStatus'],
  ...['competition', 'season', 'category', 'venue', 'arena', 'stadium', 'location', 'startedAt', 'date', 'startTime', 'match_date', 'kick_off'],
  // liveDetails.ts: the clock or minute, the serving side.
  ...['gameClock', 'clock', 'minute', 'matchMinute', 'serving', 'servingTeam'],
] as const;
const SUMMARY_GAME: { [field: string]: JsonSelection } = Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, true]));
const SUMMARY_OF_TEXT: JsonSelection = { ...SUMMARY_GAME, game: { ...SUMMARY_GAME, game: 'kind' } };

/**
 * summarizeMatch of a payload's JSON text, building only the fields it reads: the rest is
 * scanned past (a 290,000-key payload with none of them costs a scan, not a 130 ms parse).
 * The text must be valid JSON (a stored payload).
 */
export const summarizeMatchText = (payload: string): MatchSummary => summarizeMatch(selectJson(payload, SUMMARY_OF_TEXT));

/** The grouping fields as labelled details (outside summarizeMatch: a closure over the game there would keep the whole payload alive with the summary). */
function detailsOf(g: Obj): { label: string; value: string }[] {
  return Object.entries(DETAIL_LABELS).flatMap(([field, label]) => {
    const value = displayText(g[field]);
    return value === null ? [] : [{ label, value }];
  });
}

export function summarizeMatch(payload: unknown): MatchSummary {
  const body = isObj(payload) ? payload : {};
  const g = gameOf(body);
  let rawActions: unknown[] = Array.isArray(g.actions) ? g.actions : Array.isArray(g.events) ? g.events : [];
  const sides = teams(g);
  if (rawActions.length > 0 && sides.home.score === null && sides.away.score === null) {
    teamsFromActions(rawActions, sides);
    if (sides.home.score !== null) sides.scoreUnit = 'points';
  }
  const sport = first(text(g.sport), isObj(g.game) || 'gameTimeUTC' in g ? 'basketball' : 'home_score' in g ? 'football' : null);
  const lines = scoreLines(g, rawActions, sport);
  const keys = sideKeys(g, sides);
  const actionCount = countActions(rawActions);
  // The actions' entries, worded one by one as asked for; once all are, the lines are all a
  // summary keeps of them (the parsed entries and the marks made of them are let go: a kept
  // summary holds its lines, as before lines were worded on demand).
  let entries: Obj[] | null = null;
  let worded: ActionLine[] | null = null;
  let wordedCount = 0;
  let all: ActionLine[] | null = null;
  let marks: ActionMark[] | null = null;
  const football = isFootball(sport);
  const objects = (): Obj[] => {
    entries ??= rawActions.filter(isObj);
    return entries;
  };
  const actionAt = (index: number): ActionLine => {
    const list = objects();
    worded ??= new Array<ActionLine>(list.length);
    const kept = worded[index];
    if (kept !== undefined) return kept;
    const line = action(list[index]!, sport, football, keys);
    worded[index] = line;
    wordedCount += 1;
    if (wordedCount === list.length) {
      entries = [];
      rawActions = [];
      marks = null;
    }
    return line;
  };
  const playerLines = players(g);
  const state = status(g);
  const details = detailsOf(g);
  const nbaPeriod = num(g.period);
  const current =
    state.status !== 'live'
      ? null
      : first(nbaPeriod === null ? null : periodLabel(sport, nbaPeriod), lastPhase(rawActions, sport), lines.at(-1)?.label ?? null);
  const live =
    state.status !== 'live'
      ? null
      : liveDetails(
          g,
          sportOf(sport),
          current,
          objects(),
          { side: (entry) => actionTeam(entry, keys), phase: (entry) => phaseOf(entry, sport), clock: (index) => actionAt(index).clock },
          durationSeconds,
        );
  const recognised =
    sides.home.name !== null ||
    sides.away.name !== null ||
    sides.home.score !== null ||
    sides.away.score !== null ||
    lines.length > 0 ||
    playerLines.length > 0 ||
    actionCount > 0;
  return {
    sport,
    ...sides,
    lines,
    details,
    season: displayText(g.season),
    category: displayText(g.category),
    competition: displayText(g.competition),
    startedAt: startedAt(g),
    players: playerLines,
    // Wording each action is most of a summary's cost: uploads need only the count, a page the rows it shows and every action's mark.
    actions: () => {
      all ??= Array.from({ length: actionCount }, (_, index) => actionAt(index));
      return all;
    },
    actionAt,
    actionMarks: () => {
      if (marks !== null) return marks;
      // All worded: made from the lines each time (not kept beside them).
      if (worded !== null && wordedCount === actionCount) return worded.map(markOfLine);
      const phases = new Map<string, string>();
      marks = objects().map((entry) => mark(entry, sport, phases));
      return marks;
    },
    actionCount,
    ...state,
    venue: venue(g),
    current,
    recognised,
    live,
  };
}
