import type { MatchStatus } from '../../../domain/matchPayload.js';

/**
 * How long after its last upload a match whose payload says it is being played is still shown
 * as live: 3 hours. A volleyball, basketball or football match lasts about two hours, and a
 * scoring app uploads every point or minute, so three hours without an upload means the app
 * stopped before it sent "final" (a 2018 match still saying "in progress" is not live).
 */
export const LIVE_WINDOW_MS = 3 * 60 * 60 * 1000;

/** What a page says of a match's state: the payload's status, checked against time and revision. */
export type ShownStatus = 'live' | 'final' | 'scheduled' | 'quiet' | 'then';

export const SHOWN_STATUS_WORDS: Record<ShownStatus, string> = {
  live: 'Live',
  final: 'Final',
  scheduled: 'Scheduled',
  quiet: 'No recent updates',
  // biome-ignore lint/suspicious/noThenProperty: a status's name ("In play then"); this table is never awaited.
  then: 'In play then',
};

/**
 * Live only while the payload says so and the match was updated within LIVE_WINDOW_MS; an old
 * revision is never live ("In play then"); a status the reader does not know ("available") is
 * no status at all (null: no badge).
 */
export function shownStatus(status: MatchStatus | null | undefined, { quiet, old }: { quiet: boolean; old: boolean }): ShownStatus | null {
  if (status === 'live') return old ? 'then' : quiet ? 'quiet' : 'live';
  return status ?? null;
}

/** Whether a match last updated at `updatedAt` has been quiet past LIVE_WINDOW_MS at `now`. */
export const isQuiet = (updatedAt: string, now: number) => now - Date.parse(updatedAt) > LIVE_WINDOW_MS;
