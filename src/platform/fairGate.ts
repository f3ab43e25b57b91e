/** Places to run: at most `running` held at once, `waiting` more queued in order of asking. */
function createPlaces(running: number, waiting: number) {
  let held = 0;
  const queue: (() => void)[] = [];
  return {
    idle: () => held === 0 && queue.length === 0,
    /** A place, at once or once the ones queued before have had theirs; null when the queue is full. */
    take(): Promise<void> | null {
      if (held < running) {
        held += 1;
        return Promise.resolve();
      }
      if (queue.length >= waiting) return null;
      return new Promise((resolve) => queue.push(resolve));
    },
    /** Gives a place back: to the first waiting, else free. */
    give() {
      const next = queue.shift();
      if (next === undefined) held -= 1;
      else next();
    },
  };
}

export interface GateBounds {
  running: number;
  waiting: number;
}

/**
 * Bounds costly work per key (a client's address) and in total: a key's work runs one piece
 * after another (`perKey.running` at once), the rest of its pieces queued behind it, then waits
 * for a place among all keys. Work beyond a key's queue, or beyond the queue of all, is refused
 * at once (`refuse` says which), so a key asking for much waits behind itself, not in front of
 * every other key. Promises places in order of asking within a key and among all; it does not
 * cancel work whose asker went away.
 */
export function createFairGate({ perKey, total }: { perKey: GateBounds; total: GateBounds }) {
  const keys = new Map<string, ReturnType<typeof createPlaces>>();
  const all = createPlaces(total.running, total.waiting);
  return {
    async run<T>(key: string, work: () => Promise<T>, refuse: (by: 'key' | 'total') => Error): Promise<T> {
      let own = keys.get(key);
      if (own === undefined) {
        own = createPlaces(perKey.running, perKey.waiting);
        keys.set(key, own);
      }
      const place = own;
      const ownTurn = place.take();
      if (ownTurn === null) throw refuse('key');
      try {
        await ownTurn;
        const turn = all.take();
        if (turn === null) throw refuse('total');
        await turn;
        try {
          return await work();
        } finally {
          all.give();
        }
      } finally {
        place.give();
        if (place.idle() && keys.get(key) === place) keys.delete(key);
      }
    },
    /** Keys with work running or queued (for a test: none are kept once their work ends). */
    keys: () => keys.size,
  };
}
