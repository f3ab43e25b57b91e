import { createLru } from '../platform/lru.js';
import { cacheableBytes, type VersionTip } from './storedVersions.js';

/**
 * Whole versions (event data bytes) by stream and revision, weighed in bytes, least recently
 * used let go first; one larger than a quarter of the budget is not kept. A stored revision
 * never changes, so an entry is never stale; what is not here is rebuilt from the log (back to
 * its keyframe). Entries are Buffers, outside the heap, held in the shared LRU's boxes
 * (src/platform/lru.ts): a live match replaces its entry at every upload, and a plain Map's
 * let-go tables kept each replaced version's bytes until the next full collection.
 */
export function createVersionCache(maxBytes: number) {
  const entries = createLru<Buffer>(maxBytes, (bytes) => bytes.length, { maxEntryWeight: maxBytes / 4 });
  const key = (streamId: string, revision: number) => `${revision}\u0000${streamId}`;
  return {
    get: (streamId: string, revision: number): Buffer | undefined => entries.get(key(streamId, revision)),
    set(streamId: string, revision: number, bytes: Buffer) {
      entries.set(key(streamId, revision), bytes);
    },
    /** Lets go of every version of a stream (its data was erased). */
    forget(streamId: string) {
      entries.deleteWhere((k) => k.slice(k.indexOf('\u0000') + 1) === streamId);
    },
    /** Lets go of one version. */
    delete(streamId: string, revision: number) {
      entries.delete(key(streamId, revision));
    },
    get heldBytes() {
      return entries.weight();
    },
    clear() {
      entries.deleteWhere(() => true);
    },
  };
}

export type VersionCache = ReturnType<typeof createVersionCache>;

/**
 * A stream's new newest version, appended, is cached for the next one to be stored against, and
 * the one it replaces as the newest is let go: writes need only a stream's newest, and a read of an
 * older one rebuilds it from its keyframe. Without this, a live match's every version stayed until
 * the least recently used went, and the budget held a few matches' histories instead of many
 * matches' newest versions. A first version's text is not cached (storedVersions.ts: cacheableBytes).
 */
export function keepTip(versions: VersionCache, streamId: string, before: { revision: number } | null, tip: VersionTip | null) {
  const bytes = tip && cacheableBytes(tip);
  if (!tip || !bytes) return;
  if (before !== null && before.revision !== tip.revision) versions.delete(streamId, before.revision);
  versions.set(streamId, tip.revision, bytes);
}
