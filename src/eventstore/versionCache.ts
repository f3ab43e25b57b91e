import { cacheableBytes, type VersionTip } from './storedVersions.js';

/**
 * Whole versions (event data bytes) by stream and revision, weighed in bytes, least recently
 * used let go first. A stored revision never changes, so an entry is never stale; what is
 * not here is rebuilt from the log (back to its keyframe). Entries are Buffers: outside the heap.
 */
export function createVersionCache(maxBytes: number) {
  const entries = new Map<string, Buffer>();
  let held = 0;
  const key = (streamId: string, revision: number) => `${revision}\u0000${streamId}`;
  /** Lets go of the entry at `k`, if any. */
  const drop = (k: string) => {
    const bytes = entries.get(k);
    if (bytes === undefined) return;
    entries.delete(k);
    held -= bytes.length;
  };

  return {
    get(streamId: string, revision: number): Buffer | undefined {
      const k = key(streamId, revision);
      const bytes = entries.get(k);
      if (bytes === undefined) return undefined;
      entries.delete(k);
      entries.set(k, bytes);
      return bytes;
    },

    /** Keeps a version; one larger than a quarter of the budget is not kept. */
    set(streamId: string, revision: number, bytes: Buffer) {
      if (bytes.length * 4 > maxBytes) return;
      const k = key(streamId, revision);
      drop(k);
      entries.set(k, bytes);
      held += bytes.length;
      for (const [oldest, value] of entries) {
        if (held <= maxBytes) break;
        entries.delete(oldest);
        held -= value.length;
      }
    },

    /** Lets go of every version of a stream (its data was erased). */
    forget(streamId: string) {
      for (const [k, value] of entries) {
        if (k.slice(k.indexOf('\u0000') + 1) !== streamId) continue;
        entries.delete(k);
        held -= value.length;
      }
    },

    /** Lets go of one version. */
    delete(streamId: string, revision: number) {
      drop(key(streamId, revision));
    },

    get heldBytes() {
      return held;
    },

    clear() {
      entries.clear();
      held = 0;
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
