import type { Position } from '../eventstore/eventStore.js';
import { createLru } from '../platform/lru.js';
import type { ReadModelReader } from '../readmodel/readModel.js';
import { type PublicViewDoc, readPublicView } from '../../projections/publicView.js';

/** A match's current public view, or null when there is no such match. */
export type CurrentPublicView = (id: string) => Promise<PublicViewDoc | null>;

/**
 * Public views read through a cache that holds while the public view's checkpoint has not
 * moved: no document can have changed, so a hot match costs one checkpoint read (none where
 * the projection runs in this process) instead of a document read. A write's read-your-writes
 * wait ends after the checkpoint moved, so the writer never gets a stale view.
 */
export function createCurrentPublicView(
  readModel: Pick<ReadModelReader, 'get'>,
  checkpoint: () => Promise<Position | null>,
  maxEntries = 2000,
): CurrentPublicView {
  const known = createLru<{ checkpoint: Position | null; doc: PublicViewDoc | null }>(maxEntries);
  return async (id) => {
    const at = await checkpoint();
    const hit = known.get(id);
    if (hit !== undefined && hit.checkpoint === at) return hit.doc;
    const doc = await readPublicView(readModel, id);
    known.set(id, { checkpoint: at, doc });
    return doc;
  };
}
