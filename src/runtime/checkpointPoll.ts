import type { Position } from '../eventstore/eventStore.js';

const POLL_MS = 20;

interface Waiter {
  projections: readonly string[];
  position: Position;
  resolve(reached: boolean): void;
}

/**
 * Read-your-writes where the projections run in another process: one poll for the whole
 * process, every POLL_MS while any write waits, reading only the checkpoints some waiting write
 * needs, each once per round. A wait resolves true once each of its projections' checkpoints is
 * at or past its position, false after its timeout (a round still reading does not delay it) or
 * when the poll is closed. A checkpoint that cannot be read counts as not reached this round.
 */
export function createCheckpointPoll(readCheckpoint: (projection: string) => Promise<Position | null>, pollMs = POLL_MS) {
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | null = null;
  let polling = false;

  async function round() {
    timer = null;
    polling = true;
    try {
      const wanted = new Set([...waiters].flatMap((waiter) => waiter.projections));
      const reached = new Map<string, Position | null>();
      await Promise.all([...wanted].map(async (name) => reached.set(name, await readCheckpoint(name).catch(() => null))));
      for (const waiter of waiters) {
        if (waiter.projections.every((name) => (reached.get(name) ?? -Infinity) >= waiter.position)) waiter.resolve(true);
      }
    } finally {
      polling = false;
      schedule(pollMs);
    }
  }

  function schedule(delayMs: number) {
    if (timer === null && !polling && waiters.size > 0) timer = setTimeout(round, delayMs);
  }

  return {
    waitFor(projections: readonly string[], position: Position, timeoutMs: number): Promise<boolean> {
      return new Promise((resolve) => {
        const waiter: Waiter = {
          projections,
          position,
          resolve(reached) {
            clearTimeout(deadline);
            waiters.delete(waiter);
            resolve(reached);
          },
        };
        const deadline = setTimeout(() => waiter.resolve(false), timeoutMs);
        waiters.add(waiter);
        // A first round at once when none is due: a write whose readers are already there waits for nothing.
        schedule(0);
      });
    },
    close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      for (const waiter of waiters) waiter.resolve(false);
    },
  };
}
