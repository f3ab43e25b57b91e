/**
 * A bounded map that forgets the least recently used entry first. Bounded by the number of
 * entries, or, given `weigh`, by their total weight (say, characters of text); an entry
 * heavier than the whole bound is not kept and lets nothing go.
 */
export function createLru<V>(max: number, weigh: (value: V) => number = () => 1) {
  const entries = new Map<string, V>();
  let weight = 0;

  function remove(key: string) {
    const value = entries.get(key);
    if (value === undefined) return;
    entries.delete(key);
    weight -= weigh(value);
  }

  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V) {
      remove(key);
      const added = weigh(value);
      if (added > max) return;
      entries.set(key, value);
      weight += added;
      for (const oldest of entries.keys()) {
        if (weight <= max) break;
        remove(oldest);
      }
    },
    delete: remove,
  };
}
