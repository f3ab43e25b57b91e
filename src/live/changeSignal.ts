import type { Position } from '../eventstore/eventStore.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';

/** Tells its listener that the public view may have changed; runs only while started. */
export interface ChangeSignal {
  start(onChange: () => void): () => void;
}

export interface CheckpointSignalDeps {
  /** The public view's stored checkpoint: one cheap query, the same on SQLite and MongoDB. */
  checkpoint(): Promise<Position | null>;
  /** When this process runs the projection: resolves as soon as it commits past `position` (in-process notification). */
  localCommit?: ((position: Position, timeoutMs: number) => Promise<boolean>) | null;
  /** How often the stored checkpoint is read when nothing notifies sooner. */
  intervalMs?: number;
  onError?(error: unknown): void;
}

/**
 * The read side's change signal: the public view's checkpoint, read once per tick per process
 * (so a commit by another API process or a separate worker is seen too), and at once after a
 * commit of this process's own projection. Never tied to the process that took the write.
 */
export function checkpointSignal({ checkpoint, localCommit = null, intervalMs = 250, onError }: CheckpointSignalDeps): ChangeSignal {
  return {
    start(onChange) {
      let running = true;
      const pause = wakeableSleep();
      void (async () => {
        let last: Position | null = null;
        let first = true;
        while (running) {
          try {
            const now = await checkpoint();
            if (!first && now !== last) onChange();
            first = false;
            last = now;
          } catch (error) {
            onError?.(error);
          }
          if (!running) break;
          await (localCommit ? Promise.race([localCommit((last ?? -1) + 1, intervalMs * 4), pause.sleep(intervalMs * 4)]) : pause.sleep(intervalMs));
        }
      })();
      return () => {
        running = false;
        pause.wake();
      };
    },
  };
}
