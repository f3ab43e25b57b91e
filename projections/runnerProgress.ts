import type { Position } from '../src/eventstore/eventStore.js';

/**
 * One projection's checkpoint as its runner knows it, and the callers waiting for it to reach
 * a position (read-your-writes). A waiter resolves true once the checkpoint is at or past its
 * position, false after its timeout or when the runner stops.
 */
export function createProgress() {
  let checkpoint: Position | null = null;
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>();

  /** Resolves the waiters for `position` or earlier. */
  function wake(position: Position) {
    for (const waiter of waiters) {
      if (waiter.position <= position) {
        waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  return {
    checkpoint: () => checkpoint,
    /** The checkpoint moved to `position`; never back, so an older position changes nothing. */
    reach(position: Position | null) {
      if (position === null || (checkpoint !== null && position <= checkpoint)) return;
      checkpoint = position;
      wake(position);
    },
    /**
     * The checkpoint as stored, taken as it is: it may be behind what this runner had seen, after
     * a promoted rebuild; a waiter registered before it was read is woken by it all the same.
     */
    restart(stored: Position | null) {
      checkpoint = stored;
      if (stored !== null) wake(stored);
    },
    /** Resolves true once everything up to `position` is applied, false after `timeoutMs`. */
    waitFor(position: Position, timeoutMs: number): Promise<boolean> {
      if (checkpoint !== null && checkpoint >= position) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (reached: boolean) => {
            clearTimeout(timer);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    /** The runner stopped: every waiter resolves false. */
    release() {
      for (const waiter of waiters) waiter.resolve(false);
      waiters.clear();
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;
