import type { DocumentChange, ProjectionCommit, ReadModelStore } from '../readmodel/readModel.js';
import type { LocalCommits, PublicViewCommit } from './changeSignal.js';

/**
 * The read-model store as the projections of this process see it, telling `listeners` of each
 * public-view commit once it is stored: the checkpoint and the ids of the matches it changed.
 * A promoted rebuild or a reset replaces the whole view, so it tells of every match (null).
 */
export function reportingPublicViewCommits(store: ReadModelStore, publicView: string): { store: ReadModelStore; commits: LocalCommits } {
  const listeners = new Set<(commit: PublicViewCommit) => void>();
  const tell = (commit: PublicViewCommit) => {
    for (const listener of listeners) listener(commit);
  };
  const ids = (changes: DocumentChange[]) => changes.filter((change) => change.collection === publicView).map((change) => change.id);
  const reported: ReadModelStore = {
    get: (collection, id) => store.get(collection, id),
    getMany: (collection, matchIds) => store.getMany(collection, matchIds),
    find: (collection, query) => store.find(collection, query),
    count: (collection, where) => store.count(collection, where),
    getCheckpoint: (projection) => store.getCheckpoint(projection),
    ensureIndexes: (indexes) => store.ensureIndexes(indexes),
    close: () => store.close(),
    dropDeletedBytes: () => store.dropDeletedBytes(),
    async commit(projection, changes, checkpoint, expected) {
      await store.commit(projection, changes, checkpoint, expected);
      if (projection === publicView) tell({ checkpoint, matchIds: ids(changes) });
    },
    async commitAll(commits: ProjectionCommit[]) {
      await store.commitAll(commits);
      for (const commit of commits) if (commit.projection === publicView) tell({ checkpoint: commit.checkpoint, matchIds: ids(commit.changes) });
    },
    async promote(projection, staged) {
      await store.promote(projection, staged);
      if (projection === publicView) tell({ checkpoint: null, matchIds: null });
    },
    async reset(projection, collections) {
      await store.reset(projection, collections);
      if (projection === publicView) tell({ checkpoint: null, matchIds: null });
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
