import { clip } from '../../../../domain/clippedText.js';
import type { MatchSummary, PlayerLine, TeamSummary } from '../../../../domain/matchPayload.js';
import { teamShortNames } from '../../../../domain/shortNames.js';
import { NAME_SHOWN, PHASES_SHOWN, SHORT_SHOWN } from '../../../views/renderCaps.js';
import { shownStatus, type ShownStatus } from '../matchStatus.js';

/** What every part of a match page is rendered from, and the words and addresses the parts share. */
export interface MatchPageView {
  id: string;
  createdAt: string;
  updatedAt: string;
  protected: boolean;
  summary: MatchSummary;
  revision: number;
  /** Public address of the page (from PUBLIC_BASE_URL), for sharing cards and the QR code. */
  publicUrl: string;
  /** The current version: how many versions there have been. */
  versions?: number;
  /** An old version, from the log: which revision, and the newest one. */
  asOf?: { revision: number; latestRevision: number };
  /** Whether the match had no upload for LIVE_WINDOW_MS when the page was rendered (the page cache keys on it). */
  quiet?: boolean;
}

/** The state the page shows (matchStatus.ts): live only while the payload says so and uploads keep coming. */
export const statusOf = (view: MatchPageView): ShownStatus | null =>
  shownStatus(view.summary.status, { quiet: view.quiet === true, old: view.asOf !== undefined });

/** A team's name as pages show it: cut to NAME_SHOWN characters (the JSON has it whole). */
export const teamName = (name: string | null, fallback: string) => clip(name ?? fallback, NAME_SHOWN);

/** The team names a title needs: a summary's, or the ones the public view keeps (history page). */
export type TeamNames = { home: Pick<TeamSummary, 'name'>; away: Pick<TeamSummary, 'name'> };

export function matchTitle(id: string, s: TeamNames): string {
  return s.home.name || s.away.name ? `${teamName(s.home.name, 'Home')} vs ${teamName(s.away.name, 'Away')}` : `Match ${id}`;
}

export const historyUrl = (id: string) => `/match/${id}/history`;
export const jsonUrl = (view: Pick<MatchPageView, 'id' | 'asOf'>) => `/api/matches/${view.id}${view.asOf ? `?revision=${view.asOf.revision}` : ''}`;
/** Sets or periods a page renders (PHASES_SHOWN); the rest are counted in a note. */
export const shownLines = (s: MatchSummary) => (s.lines.length > PHASES_SHOWN ? s.lines.slice(0, PHASES_SHOWN) : s.lines);
export const scoreText = (n: number | null) => (n === null ? '–' : String(n));

/** "Hillcrest Owls 2–3 Stonebridge Lynx", for titles and sharing cards. */
export function headline(id: string, s: MatchSummary): string {
  if (!s.home.name && !s.away.name) return `Match ${id}`;
  const score = s.home.score === null && s.away.score === null ? ' vs ' : ` ${scoreText(s.home.score)}–${scoreText(s.away.score)} `;
  return `${teamName(s.home.name, 'Home')}${score}${teamName(s.away.name, 'Away')}`;
}

/**
 * Names short enough for a narrow column, never the same for both sides: the payload's own short
 * names (tricodes) unless both give the same one, else each name's first distinctive word or
 * the word that tells the two apart (shortNames.ts).
 */
const shortPair = (s: MatchSummary) => {
  const pair = teamShortNames(s.home, s.away);
  return { home: clip(pair.home, SHORT_SHOWN), away: clip(pair.away, SHORT_SHOWN) };
};
export const homeShort = (s: MatchSummary) => shortPair(s).home;
export const awayShort = (s: MatchSummary) => shortPair(s).away;

/** A player's name or id as a page shows it. */
export const playerName = (p: PlayerLine) => clip(p.name ?? p.playerId ?? '', NAME_SHOWN);

/** Where a page of plays is, on its own: page 1 has the newest. */
export const playsUrl = (id: string, page: number) => `/match/${id}?part=plays&page=${page}`;
