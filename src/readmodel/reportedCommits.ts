import type { Position } from '../domain/logPosition.js';
import type { DocumentChange, ProjectionCommit, ReadModelStore } from './readModel.js';

/** A projection's commit, as this process made it: its changes, or null when a promoted rebuild or a reset replaced its collections whole. */
interface ReportedCommit {
  projection: string;
  /** Where its checkpoint moved; null after a promote or a reset. */
  checkpoint: Position | null;
  changes: readonly DocumentChange[] | null;
}

/** Subscribes to this process's commits, each told once it is stored; returns the unsubscribe. */
export type ReportedCommits = (listener: (commit: ReportedCommit) => void) => () => void;

/**
 * The read-model store as the projections of this process see it, telling listeners of each
 * commit once it is stored: readers in the same process then learn what changed without
 * reading it back (the live feed, which matches; a write's receipt, its leaf).
 */
export function reportingCommits(store: ReadModelStore): { store: ReadModelStore; commits: ReportedCommits } {
  const listeners = new Set<(commit: ReportedCommit) => void>();
  const tell = (commit: ReportedCommit) => {
    for (const listener of listeners) listener(commit);
  };
  const reported: ReadModelStore = {
    get: (collection, id) => store.get(collection, id),
    getMany: (collection, matchIds) => store.getMany(collection, matchIds),
    find: (collection, query) => store.find(collection, query),
    count: (collection, where) => store.count(collection, where),
    getCheckpoint: (projection) => store.getCheckpoint(projection),
    forUpdates: store.forUpdates,
    ensureIndexes: (indexes) => store.ensureIndexes(indexes),
    close: () => store.close(),
    dropDeletedBytes: () => store.dropDeletedBytes(),
    async commit(projection, changes, checkpoint, expected) {
      await store.commit(projection, changes, checkpoint, expected);
      tell({ projection, checkpoint, changes });
    },
    async commitAll(commits: ProjectionCommit[]) {
      await store.commitAll(commits);
      for (const { projection, checkpoint, changes } of commits) tell({ projection, checkpoint, changes });
    },
    async promote(projection, staged) {
      await store.promote(projection, staged);
      tell({ projection, checkpoint: null, changes: null });
    },
    async reset(projection, collections) {
      await store.reset(projection, collections);
      tell({ projection, checkpoint: null, changes: null });
    },
  };
  return {
    store: reported,
    commits(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
