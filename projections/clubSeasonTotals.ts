import { clubPlayers } from '../src/domain/clubSync.js';
import { addStat } from '../src/domain/statRates.js';
import { type FieldValue, type ReadModelReader, collectionOf } from '../src/readmodel/readModel.js';
import type { ProjectionView } from './projection.js';

/**
 * Season totals of the club's players, kept by the club dashboard projection as matches are
 * synced, settled, excluded or included: one document per club, team, season, category,
 * competition and player, so the Players and Stats pages read a few small documents instead
 * of every match copy. Stats are stored as values ([name, total, matches]), never as field names.
 */
export const CLUB_SEASON_TOTALS = collectionOf<SeasonTotalsDoc>('clubSeasonTotals');

/** [stat name, total, number of matches that gave the stat] */
type StatTotal = [string, number, number];

interface SeasonGroup {
  clubId: string;
  teamId: string;
  season: string | null;
  category: string | null;
  competition: string | null;
}

export interface SeasonTotalsDoc extends SeasonGroup {
  id: string;
  /** The player's merge key: the app's playerId, else number and name. */
  key: string;
  playerId: string | null;
  name: string | null;
  number: string | null;
  position: string | null;
  /** Start (else sync) time of the newest match that gave the name, number, position and sport. */
  identityAt: string;
  sport: string | null;
  matchesPlayed: number;
  stats: StatTotal[];
}

/** What a copy must tell for its counted players to be added to (or taken from) the totals. */
export interface CountedCopy extends SeasonGroup {
  matchId: string;
  sport: string | null;
  side: 'home' | 'away' | null;
  excluded?: boolean;
  startedAt: string | null;
  syncedAt: string;
  players: {
    key: string;
    team?: string | null;
    playerId: string | null;
    name: string | null;
    number: string | null;
    position: string | null;
    stats: [string, number][];
  }[];
}

/** The players a copy counts for the club: none while its side is unknown or it is excluded. */
export function countedPlayers<C extends CountedCopy>(copy: C): C['players'] {
  return copy.side === null || copy.excluded === true ? [] : clubPlayers(copy.players, copy.side);
}

/** Lines with only a position in their payload's list cannot be matched across matches. */
export const playerMergeKey = (matchId: string, key: string) => (key.startsWith('#') ? `${matchId}${key}` : key);

const totalsId = (group: SeasonGroup, key: string) => JSON.stringify([group.clubId, group.teamId, group.season, group.category, group.competition, key]);

/** Pure: a player's totals after adding (sign 1) or taking away (sign -1) one match line; null once no match is left. */
function withLine(current: SeasonTotalsDoc | null, copy: CountedCopy, player: CountedCopy['players'][number], sign: 1 | -1): SeasonTotalsDoc | null {
  const key = playerMergeKey(copy.matchId, player.key);
  const group: SeasonGroup = { clubId: copy.clubId, teamId: copy.teamId, season: copy.season, category: copy.category, competition: copy.competition };
  const at = copy.startedAt ?? copy.syncedAt;
  const base: SeasonTotalsDoc = current ?? {
    id: totalsId(group, key),
    ...group,
    key,
    playerId: player.playerId,
    name: player.name,
    number: player.number,
    position: player.position,
    identityAt: at,
    sport: copy.sport,
    matchesPlayed: 0,
    stats: [],
  };
  const matchesPlayed = base.matchesPlayed + sign;
  if (matchesPlayed <= 0) return null;
  const stats = new Map(base.stats.map(([name, total, matches]): [string, [number, number]] => [name, [total, matches]]));
  for (const [name, value] of player.stats) {
    const [total, matches] = stats.get(name) ?? [0, 0];
    if (matches + sign <= 0) stats.delete(name);
    else stats.set(name, [Math.round((total + sign * value) * 1e9) / 1e9, matches + sign]);
  }
  const newer = sign === 1 && at >= base.identityAt;
  return {
    ...base,
    ...(newer ? { playerId: player.playerId, name: player.name, number: player.number, position: player.position, identityAt: at, sport: copy.sport } : {}),
    matchesPlayed,
    stats: [...stats].map(([name, [total, matches]]): StatTotal => [name, total, matches]),
  };
}

/** Adds a copy's counted players to the totals (sign 1), or takes them away (sign -1). */
export async function countCopy(view: ProjectionView, copy: CountedCopy, sign: 1 | -1): Promise<void> {
  for (const player of countedPlayers(copy)) {
    const id = totalsId(copy, playerMergeKey(copy.matchId, player.key));
    const current = await view.get(CLUB_SEASON_TOTALS, id);
    const next = withLine(current, copy, player, sign);
    if (next === null) view.delete(CLUB_SEASON_TOTALS, id);
    else view.put(CLUB_SEASON_TOTALS, next);
  }
}

export interface SeasonFilter {
  teamId?: string | undefined;
  season?: string | undefined;
  category?: string | undefined;
  competition?: string | undefined;
}

/** A player over the chosen seasons, categories and competitions. */
export interface PlayerTotals {
  teamId: string;
  sport: string | null;
  key: string;
  playerId: string | null;
  name: string | null;
  number: string | null;
  position: string | null;
  matchesPlayed: number;
  totals: Record<string, number>;
}

/** The season documents of a club that match the filter (all of them without one). */
export async function readSeasonTotals(reader: ReadModelReader, clubId: string, filter: SeasonFilter = {}): Promise<SeasonTotalsDoc[]> {
  const where: Record<string, FieldValue> = { clubId };
  for (const field of ['teamId', 'season', 'category', 'competition'] as const) {
    const value = filter[field];
    if (value !== undefined && value !== '') where[field] = value;
  }
  return await reader.find(CLUB_SEASON_TOTALS, { where });
}

/** Players merged over the season documents given, ordered by team, shirt number, name. */
export function playerTotalsOf(docs: SeasonTotalsDoc[]): PlayerTotals[] {
  const byPlayer = new Map<string, PlayerTotals & { identityAt: string }>();
  for (const doc of docs) {
    const id = `${doc.teamId}\0${doc.key}`;
    const entry = byPlayer.get(id) ?? {
      teamId: doc.teamId,
      sport: null,
      key: doc.key,
      playerId: null,
      name: null,
      number: null,
      position: null,
      identityAt: '',
      matchesPlayed: 0,
      totals: {},
    };
    if (doc.identityAt >= entry.identityAt) {
      Object.assign(entry, {
        playerId: doc.playerId,
        name: doc.name,
        number: doc.number,
        position: doc.position,
        identityAt: doc.identityAt,
        sport: doc.sport,
      });
    }
    entry.matchesPlayed += doc.matchesPlayed;
    for (const [name, total] of doc.stats) addStat(entry.totals, name, total);
    byPlayer.set(id, entry);
  }
  return [...byPlayer.values()]
    .map(({ identityAt: _at, ...player }) => player)
    .sort((a, b) => a.teamId.localeCompare(b.teamId) || numberOrder(a.number, b.number) || (a.name ?? '').localeCompare(b.name ?? ''));
}

/** The seasons, categories and competitions a club has totals for, for the Stats filters. */
export function seasonOptions(docs: SeasonTotalsDoc[]) {
  const distinct = (pick: (doc: SeasonTotalsDoc) => string | null) => [...new Set(docs.map(pick).filter((v): v is string => v !== null))].sort();
  return { seasons: distinct((d) => d.season), categories: distinct((d) => d.category), competitions: distinct((d) => d.competition) };
}

function numberOrder(a: string | null, b: string | null): number {
  const x = a === null ? Number.POSITIVE_INFINITY : Number(a);
  const y = b === null ? Number.POSITIVE_INFINITY : Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return (a ?? '').localeCompare(b ?? '');
  return x === y ? 0 : x < y ? -1 : 1;
}
