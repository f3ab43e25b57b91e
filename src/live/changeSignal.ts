import type { Position } from '../eventstore/eventStore.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';

/**
 * What changed in the public view: the ids of the matches a commit touched, or null when the
 * signal cannot know (a commit by another process): then every watched match may have changed.
 */
export type Touched = readonly string[] | null;

/** Tells its listener that the public view may have changed; runs only while started. */
export interface ChangeSignal {
  start(onChange: (touched: Touched) => void): () => void;
}

/** A commit of this process's own public-view projection: the checkpoint it moved to, and the matches it changed. */
interface PublicViewCommit {
  checkpoint: Position | null;
  /** null: the whole view was replaced (a promoted rebuild, a reset). */
  matchIds: readonly string[] | null;
}

/** Subscribes to this process's public-view commits; returns the unsubscribe. */
export type LocalCommits = (listener: (commit: PublicViewCommit) => void) => () => void;

export interface CheckpointSignalDeps {
  /** The public view's stored checkpoint: one cheap query, the same on SQLite and MongoDB. */
  checkpoint(): Promise<Position | null>;
  /** When this process runs the projection: its commits, heard as they happen, with the matches they touched. */
  localCommits?: LocalCommits | null;
  /** How often the stored checkpoint is read (four times as seldom when local commits are heard). */
  intervalMs?: number;
  onError?(error: unknown): void;
}

/**
 * The read side's change signal. Where this process runs the public-view projection, each
 * commit is heard at once with the matches it touched, so a write costs a read of those
 * matches only, however many are watched. The stored checkpoint is also read once per tick
 * (so a commit by another API process or a separate worker is seen too); a move that no local
 * commit explains means "anything may have changed" (null). Never tied to the process that
 * took the write.
 */
export function checkpointSignal({ checkpoint, localCommits = null, intervalMs = 250, onError }: CheckpointSignalDeps): ChangeSignal {
  return {
    start(onChange) {
      let running = true;
      const pause = wakeableSleep();
      /** The newest checkpoint a local commit reached: the poll has nothing to add up to it. */
      let heard: Position | null = null;
      const unsubscribe = localCommits?.((commit) => {
        if (commit.checkpoint !== null && (heard === null || commit.checkpoint > heard)) heard = commit.checkpoint;
        if (commit.matchIds === null || commit.matchIds.length > 0) onChange(commit.matchIds);
      });
      void (async () => {
        let last: Position | null = null;
        let first = true;
        while (running) {
          try {
            const now = await checkpoint();
            const explained = now !== null && heard !== null && now <= heard;
            if (!first && now !== last && !explained) onChange(null);
            first = false;
            last = now;
          } catch (error) {
            onError?.(error);
          }
          if (!running) break;
          await pause.sleep(localCommits ? intervalMs * 4 : intervalMs);
        }
      })();
      return () => {
        running = false;
        unsubscribe?.();
        pause.wake();
      };
    },
  };
}
