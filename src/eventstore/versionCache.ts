/**
 * Whole versions (event data bytes) by stream and revision, weighed in bytes, least recently
 * used let go first. A stored revision never changes, so an entry is never stale; what is
 * not here is rebuilt from the log (back to its keyframe). Entries are Buffers: outside the heap.
 */
export function createVersionCache(maxBytes: number) {
  const entries = new Map<string, Buffer>();
  let held = 0;
  const key = (streamId: string, revision: number) => `${revision}\u0000${streamId}`;

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
      const old = entries.get(k);
      if (old !== undefined) {
        held -= old.length;
        entries.delete(k);
      }
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
