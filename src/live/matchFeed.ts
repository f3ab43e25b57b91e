import type { ChangeSignal, Touched } from './changeSignal.js';

/** Told each newer revision, or null once the match is gone (erased): then never again. */
type RevisionListener = (revision: number | null) => void;

export interface MatchFeed {
  /**
   * Calls `listener` with each newer revision of the match than `known`, until the returned
   * function is called, or with null once the match is gone (erased), after which it is not watched.
   * Viewers of one match share one entry: a change costs one read per
   * watched match per process, not one per viewer.
   */
  watch(matchId: string, known: number, listener: RevisionListener): () => void;
  /** How many matches and listeners are watched (for tests and benchmarks). */
  size(): { matches: number; listeners: number };
  close(): void;
}

export interface MatchFeedDeps {
  signal: ChangeSignal;
  /** Current revisions of the given matches (absent when deleted): one query for all; only those a change touched. */
  readRevisions(matchIds: string[]): Promise<Map<string, number>>;
  onError?(error: unknown): void;
}

/**
 * The fan-out hub of live pages: one entry per watched match. A change reads the watched
 * matches it touched (all of them only when the signal cannot say which), so a write costs
 * the same however many matches are watched. The signal runs only while someone watches.
 */
export function createMatchFeed({ signal, readRevisions, onError }: MatchFeedDeps): MatchFeed {
  const watched = new Map<string, { revision: number; listeners: Set<RevisionListener> }>();
  let stopSignal: (() => void) | null = null;
  let refreshing: Promise<void> | null = null;
  /** What changed since the last refresh began: every match, or these ids. */
  let pendingAll = false;
  let pendingIds = new Set<string>();

  async function refresh(): Promise<void> {
    let ids: string[];
    if (pendingAll) {
      ids = [...watched.keys()];
    } else {
      ids = [];
      for (const id of pendingIds) if (watched.has(id)) ids.push(id);
    }
    pendingAll = false;
    pendingIds = new Set();
    if (ids.length === 0) return;
    const revisions = await readRevisions(ids);
    for (const id of ids) {
      const entry = watched.get(id);
      if (entry === undefined) continue;
      const revision = revisions.get(id);
      if (revision === undefined) {
        // A watched match's document went away: it was erased. Its viewers are told once.
        watched.delete(id);
        for (const listener of entry.listeners) listener(null);
        continue;
      }
      if (revision <= entry.revision) continue;
      entry.revision = revision;
      for (const listener of entry.listeners) listener(revision);
    }
  }

  /** Refreshes coalesce: changes during a refresh make exactly one more afterwards, of what they touched. */
  function onChange(touched: Touched) {
    if (touched === null) pendingAll = true;
    else if (!pendingAll) for (const id of touched) if (watched.has(id)) pendingIds.add(id);
    if (refreshing) return;
    if (!pendingAll && pendingIds.size === 0) return;
    refreshing = refresh()
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        refreshing = null;
        if (pendingAll || pendingIds.size > 0) onChange([]);
      });
  }

  return {
    watch(matchId, known, listener) {
      let entry = watched.get(matchId);
      if (entry === undefined) {
        entry = { revision: known, listeners: new Set() };
        watched.set(matchId, entry);
      } else if (known > entry.revision) {
        entry.revision = known;
      }
      entry.listeners.add(listener);
      stopSignal ??= signal.start(onChange);
      // A viewer who joined with an older revision than the feed knows is told at once.
      if (known < entry.revision) listener(entry.revision);
      const own = entry;
      return () => {
        own.listeners.delete(listener);
        if (own.listeners.size === 0 && watched.get(matchId) === own) watched.delete(matchId);
        if (watched.size === 0 && stopSignal) {
          stopSignal();
          stopSignal = null;
        }
      };
    },
    size() {
      let listeners = 0;
      for (const entry of watched.values()) listeners += entry.listeners.size;
      return { matches: watched.size, listeners };
    },
    close() {
      stopSignal?.();
      stopSignal = null;
      watched.clear();
    },
  };
}
