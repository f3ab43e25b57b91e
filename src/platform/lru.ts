/**
 * A box made by `new`, not by an object literal: V8 tracks how long the objects of each literal
 * live and, when most of them outlive young collections, allocates that literal's later objects
 * straight in the old generation (allocation-site pretenuring). Every cache shares this code, so
 * the long-lived boxes of the match state cache made the boxes of the parsed-payload caches old
 * too, and an old box kept its young payload alive into a promotion (docs/performance.md, step 34).
 */
class Box<V> {
  constructor(public value: V | undefined) {}
}

/**
 * A bounded map that forgets the least recently used entry first. Bounded by the number of
 * entries, or, given `weigh`, by their total weight (say, characters of text); an entry
 * heavier than the whole bound is not kept and lets nothing go.
 *
 * Each value sits in a box that is emptied when its entry leaves. A JS Map that is added to
 * and deleted from keeps replacing its hash table, and a replaced table that reached the old
 * generation can still point at the values it held; without the boxes, values that passed
 * through a long-lived cache (parsed payloads) survived young-generation collections until
 * the next full one and were promoted (docs/performance.md, step 33).
 */
export function createLru<V>(max: number, weigh: (value: V) => number = () => 1) {
  const entries = new Map<string, Box<V>>();
  let weight = 0;

  function remove(key: string) {
    const box = entries.get(key);
    if (box === undefined) return;
    entries.delete(key);
    weight -= weigh(box.value as V);
    box.value = undefined;
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
    set(key: string, value: V) {
      remove(key);
      const added = weigh(value);
      if (added > max) return;
      entries.set(key, new Box(value));
      weight += added;
      for (const oldest of entries.keys()) {
        if (weight <= max) break;
        remove(oldest);
      }
    },
    delete: remove,
  };
}
