/**
 * What a parent looks at while a match is live, from fields the payload has: basketball's game
 * clock, team fouls, bonus and timeouts left; football's minute; volleyball's serving side and
 * each side's timeouts and substitutions in the set being played. Pure; reads the play-by-play
 * backwards only as far as the current set.
 */

type Obj = Record<string, unknown>;
type Side = 'home' | 'away';

export interface SideDetails {
  /** Basketball: team fouls in the period (`statistics.foulsTeam`, `teamFouls`, `fouls`). */
  fouls: number | null;
  /** Basketball: the side's opponents shoot free throws (`inBonus`). */
  bonus: boolean | null;
  /** Basketball: timeouts left (`timeoutsRemaining`). */
  timeoutsLeft: number | null;
  /** Volleyball: timeouts taken in the current set (actions of type `timeout`). */
  timeouts: number | null;
  /** Volleyball: substitutions in the current set (actions of type `substitution`). */
  substitutions: number | null;
}

export interface LiveDetails {
  /** Basketball's game clock ("4:12"), football's minute ("67'"). */
  clock: string | null;
  /** Volleyball: the side serving (the last serve's, or the payload's `serving`). */
  serving: Side | null;
  home: SideDetails;
  away: SideDetails;
}

/** How a summary reads one action (matchPayload.ts): its side, its set or period, its clock as shown. */
export interface ActionReader {
  side(entry: Obj): string | null;
  phase(entry: Obj): string | null;
  clock(index: number): string | null;
}

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : null;
  return n !== null && Number.isInteger(n) && n >= 0 && n < 1000 ? n : null;
};
const flag = (value: unknown): boolean | null =>
  value === true || value === 1 || value === '1' || value === 'true'
    ? true
    : value === false || value === 0 || value === '0' || value === 'false'
      ? false
      : null;
const asSide = (value: unknown): Side | null => (value === 'home' || value === 'away' ? value : null);
const typeOf = (entry: Obj): string => {
  const type = entry.type ?? entry.actionType;
  const name = typeof type === 'string' ? type : isObj(type) && typeof type.name === 'string' ? type.name : '';
  return name.toLowerCase();
};

/** A basketball side's fouls, bonus and timeouts from its team object (NBA live data's shape and plain ones). */
function basketballSide(team: unknown): SideDetails {
  const t = isObj(team) ? team : {};
  const stats = isObj(t.statistics) ? t.statistics : {};
  return {
    fouls: count(stats.foulsTeam) ?? count(t.teamFouls) ?? count(t.fouls) ?? count(stats.teamFouls),
    bonus: flag(t.inBonus) ?? flag(t.bonus),
    timeoutsLeft: count(t.timeoutsRemaining) ?? count(t.timeoutsLeft),
    timeouts: null,
    substitutions: null,
  };
}

const none = (): SideDetails => ({ fouls: null, bonus: null, timeoutsLeft: null, timeouts: null, substitutions: null });

/** A clock field as a game clock: `PT04M12.00S` → "4:12", "4:12" kept. */
function gameClock(value: unknown, durationSeconds: (text: string) => number | null): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const seconds = durationSeconds(value);
  if (seconds === null) return value.trim().slice(0, 8);
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * The live details of a match `g` of `sport` being played in `current` (its set or period label),
 * its play-by-play `entries` read by `reader`. Null for a sport without any.
 */
export function liveDetails(
  g: Obj,
  sport: 'volleyball' | 'basketball' | 'football' | null,
  current: string | null,
  entries: readonly unknown[],
  reader: ActionReader,
  durationSeconds: (text: string) => number | null,
): LiveDetails | null {
  if (sport === 'basketball') {
    const clock = gameClock(g.gameClock ?? g.clock, durationSeconds);
    return { clock, serving: null, home: basketballSide(g.homeTeam ?? g.home), away: basketballSide(g.awayTeam ?? g.away) };
  }
  if (sport === 'football') {
    const minute = count(g.minute) ?? count(g.matchMinute);
    let clock = minute === null ? null : `${minute}'`;
    // Else the minute of the last action that has one.
    for (let i = entries.length - 1; clock === null && i >= 0 && i >= entries.length - 50; i -= 1) clock = isObj(entries[i]) ? reader.clock(i) : null;
    return { clock, serving: null, home: none(), away: none() };
  }
  if (sport !== 'volleyball') return null;
  const home = { ...none(), timeouts: 0, substitutions: 0 };
  const away = { ...none(), timeouts: 0, substitutions: 0 };
  let serving = asSide(g.serving) ?? asSide(g.servingTeam);
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (!isObj(entry)) continue;
    const phase = reader.phase(entry);
    if (phase !== null && current !== null && phase !== current) break;
    const side = asSide(reader.side(entry));
    if (side === null) continue;
    const type = typeOf(entry);
    const skill = typeof entry.skill === 'string' ? entry.skill.toLowerCase() : '';
    if (serving === null && (skill === 'serve' || skill === 's')) serving = side;
    const counts = side === 'home' ? home : away;
    if (type === 'timeout') counts.timeouts += 1;
    else if (type === 'substitution' || type === 'sub') counts.substitutions += 1;
  }
  return { clock: null, serving, home, away };
}
