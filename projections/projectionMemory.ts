import type { SkippedValues } from '../src/domain/jsonSelect.js';
import { digestedTexts } from '../src/domain/matchDiffText.js';
import { createLru } from '../src/platform/lru.js';
import type { SyncSource } from './syncSource.js';

/**
 * Characters of payload text kept for team scans, and for digests: each ~140 live matches of
 * 60 KB; past them, the oldest are scanned or digested again (the same result).
 */
const TEAM_SCANS_CHARS = 8_000_000;
const DIGESTED_CHARS = 8_000_000;

/**
 * What projections keep in memory between batches: made by whoever applies them (each runner,
 * each replay) and given to every batch through the view, so none is process-wide and a rebuild
 * never shares the live runner's. Each is only a cache: what it holds is compared with the text
 * or keyed by an event id, never trusted; a fresh one gives the same documents.
 */
export interface ProjectionMemory {
  /**
   * publicView: per match, what the team-name scan of its latest payload text skipped, so the
   * next version's scan compares the play-by-play the two share instead of scanning it again.
   * Holds payload text: emptied on every MatchErased.
   */
  readonly teamScans: ReturnType<typeof createLru<SkippedValues>>;
  /**
   * matchHistory: the actions' texts of the latest versions' bases, by digest, so a version's are
   * compared with its previous one's instead of digested. Holds payload text: emptied on every MatchErased.
   */
  readonly digested: ReturnType<typeof digestedTexts>;
  /** clubDashboard and syncStatus: club-sync sources recently decoded, by event id (both read the same append); never an erased version's. */
  readonly syncSources: ReturnType<typeof createLru<{ source: SyncSource | null }>>;
}

export const createProjectionMemory = (): ProjectionMemory => ({
  teamScans: createLru<SkippedValues>(TEAM_SCANS_CHARS, (skipped) => skipped.text.length),
  digested: digestedTexts(DIGESTED_CHARS),
  syncSources: createLru<{ source: SyncSource | null }>(8),
});
