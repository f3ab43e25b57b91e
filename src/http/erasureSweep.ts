import type { ChangeSignal } from '../live/changeSignal.js';
import type { ReportedCommits } from '../readmodel/reportedCommits.js';
import { erasedIn } from '../../projections/publicView.js';

/**
 * Lets go of everything this process keeps of an erased match's payloads: its kept pages,
 * answers, summaries and old versions (by match), and the request bodies kept for repeats (all
 * of them: they are not kept by match, and are parsed again at the next upload). The
 * projections let go of their own (the digests and team scans, on MatchErased).
 * Run when the API erases, when this process's projections commit an erasure, and when the
 * public view moves by another process's commit (`matchlog erase`, a projection worker, another
 * API process) for each erasure it has not swept yet among the newest.
 */
export function createErasureSweep(forgetters: ReadonlyArray<(matchId: string) => void>) {
  return (matchId: string) => {
    for (const forget of forgetters) forget(matchId);
  };
}

/** Calls `sweep` with each match this process's projection commits erase; returns the unsubscribe. */
export function sweepCommittedErasures(commits: ReportedCommits, sweep: (matchId: string) => void) {
  return commits(({ changes }) => {
    if (changes === null) return;
    for (const id of erasedIn(changes)) sweep(id);
  });
}

/** Erasures read at each move of the public view no commit of this process explains: more than a few seconds bring. */
const NEWEST_ERASURES = 64;

/**
 * Sweeps the erasures other processes commit: at each move of the public view's checkpoint that
 * this process's commits do not explain (`signal`'s null), the newest erasures are read and each
 * one not swept before is swept. Those recorded before the start are taken as swept (nothing was
 * kept of them yet). Returns the stop.
 */
export function sweepErasuresElsewhere(signal: ChangeSignal, newest: (limit: number) => Promise<string[]>, sweep: (matchId: string) => void) {
  const swept = new Set<string>();
  let reading: Promise<void> | null = null;
  const read = async (sweepNew: boolean) => {
    for (const id of await newest(NEWEST_ERASURES)) {
      if (swept.has(id)) continue;
      swept.add(id);
      if (sweepNew) sweep(id);
    }
    // Bounded: the ids swept long ago are no longer among the newest.
    if (swept.size > 4 * NEWEST_ERASURES) for (const id of [...swept].slice(0, swept.size - NEWEST_ERASURES)) swept.delete(id);
  };
  // Read failures (the store closing under it, a blip) are the next move's to retry: never an unhandled rejection.
  const started = read(false).catch(() => {});
  return signal.start((touched) => {
    if (touched !== null || reading !== null) return;
    reading = started
      .then(() => read(true))
      .catch(() => {})
      .finally(() => {
        reading = null;
      });
  });
}
