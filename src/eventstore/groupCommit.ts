/**
 * Group commit: what is added in one turn of the event loop is committed together, at most
 * `maxGroupSize` at once, so many appends share one transaction (one fsync). Adds made while a
 * group commits (in the writer thread, they wait in its port) make the next group.
 */
export function createGroupCommit<Item>(options: { maxGroupSize: number; commit: (group: Item[]) => void }) {
  let queue: Item[] = [];
  let scheduled = false;

  function commitQueued() {
    scheduled = false;
    while (queue.length > 0) {
      const group = queue.slice(0, options.maxGroupSize);
      queue = queue.slice(group.length);
      options.commit(group);
    }
  }

  return {
    add(item: Item) {
      queue.push(item);
      if (scheduled) return;
      scheduled = true;
      setImmediate(commitQueued);
    },
    /** Commits what is queued now, without waiting for the next turn. */
    commitQueued,
  };
}
