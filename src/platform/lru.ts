/**
 * A box made by `new`, not by an object literal: V8 tracks how long the objects of each literal
 * live and, when most of them outlive young collections, allocates that literal's later objects
 * straight in the old generation (allocation-site pretenuring). Every cache shares this code, so
 * the long-lived boxes of the match state cache made the boxes of the parsed-payload caches old
 * too, and an old box kept its young payload alive into a promotion (docs/performance/steps.md, step 34).
 * The box also remembers the weight its value was counted at, so a value that grew is re-counted exactly.
 */
class Box<V> {
  constructor(
    public value: V | undefined,
    public weight: number,
  ) {}
}

export interface LruOptions {
  /** Heaviest entry kept (default: the whole bound); a heavier one is not kept and lets nothing go. */
  maxEntryWeight?: number;
}

/**
 * A bounded map that forgets the least recently used entry first. Bounded by the number of
 * entries, or, given `weigh`, by their total weight (say, bytes of text); an entry heavier
 * than `maxEntryWeight` (or the whole bound) is not kept and lets nothing go. A value that
 * grows while kept (a compressed copy attached) is re-counted with `reweigh`, which may let
 * older entries go, or the entry itself when it no longer fits.
 *
 * Each value sits in a box that is emptied when its entry leaves. A JS Map that is added to
 * and deleted from keeps replacing its hash table, and a replaced table that reached the old
 * generation can still point at the values it held; without the boxes, values that passed
 * through a long-lived cache (parsed payloads) survived young-generation collections until
 * the next full one and were promoted (docs/performance/steps.md, step 33).
 */
export function createLru<V>(max: number, weigh: (value: V) => number = () => 1, { maxEntryWeight = max }: LruOptions = {}) {
  const entries = new Map<string, Box<V>>();
  const entryMax = Math.min(max, maxEntryWeight);
  let weight = 0;

  function remove(key: string) {
    const box = entries.get(key);
    if (box === undefined) return;
    entries.delete(key);
    weight -= box.weight;
    box.value = undefined;
  }

  /** Lets the least recently used go until the total fits. */
  function shrink() {
    for (const oldest of entries.keys()) {
      if (weight <= max) break;
      remove(oldest);
    }
  }

  return {
    get(key: string): V | undefined {
      const box = entries.get(key);
      if (box !== undefined) {
        entries.delete(key);
        entries.set(key, box);
      }
      return box?.value;
    },
    /** Keeps `value` under `key`; false when it is too heavy to keep. */
    set(key: string, value: V): boolean {
      remove(key);
      const added = weigh(value);
      if (added > entryMax) return false;
      entries.set(key, new Box(value, added));
      weight += added;
      shrink();
      return true;
    },
    /** Counts the entry's value again after it grew or shrank; false when it is no longer kept. */
    reweigh(key: string): boolean {
      const box = entries.get(key);
      // A kept entry's box holds its value (remove() empties a box as the entry leaves).
      if (box === undefined || box.value === undefined) return false;
      const now = weigh(box.value);
      if (now > entryMax) {
        remove(key);
        return false;
      }
      weight += now - box.weight;
      box.weight = now;
      shrink();
      return entries.has(key);
    },
    delete: remove,
    /** Lets go of every entry whose key passes `test`. */
    deleteWhere(test: (key: string) => boolean) {
      for (const key of [...entries.keys()]) if (test(key)) remove(key);
    },
    /** The total weight kept. */
    weight: () => weight,
    /** How many entries are kept. */
    size: () => entries.size,
  };
}
