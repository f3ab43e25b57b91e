/**
 * Where streams and the log end, as far as this connection knows, so that a read of what follows
 * a stream's known end (a command whose state is cached, the app-key check of every club sync),
 * or a subscription's read past the log's known end (after each delivery, to say caught up),
 * need not ask the file. Learnt from this process's own commits and from reads that reached an end.
 *
 * What is known holds only while no other connection has committed: `dataVersion` (SQLite's
 * `PRAGMA data_version`) changes exactly then, and everything known is forgotten. A revoked
 * app key or a command of another process is therefore seen by the very next read, as before.
 */
export function createStreamEnds(dataVersion: () => number, maxStreams = 10_000) {
  /** Stream id → the revision from which it surely has no event. */
  const ends = new Map<string, number>();
  /** The log's last position, or null when not known. */
  let logEnd: number | null = null;
  let version = dataVersion();

  /** Whether what is known still holds: no other connection has committed since it was learnt. */
  function stillKnown(): boolean {
    const now = dataVersion();
    if (now === version) return true;
    ends.clear();
    logEnd = null;
    version = now;
    return false;
  }

  return {
    /**
     * True when the stream surely has no event at `revision` or after it. The data version is
     * asked only when the answer could be yes: a stream not known (each new match) costs nothing.
     */
    endsBefore(streamId: string, revision: number): boolean {
      const end = ends.get(streamId);
      if (end === undefined || end > revision) return false;
      return stillKnown();
    },

    /** True when the log surely has no event after `position` (asks the data version only then). */
    logEndsBefore(position: number): boolean {
      return logEnd !== null && logEnd <= position && stillKnown();
    },

    /** The log has no event after `position` (just committed here, or a read reached it). */
    logEndsAt(position: number) {
      logEnd = position;
    },

    /** The stream has no event at `revision` or after it (just read, or just committed here). */
    endsAt(streamId: string, revision: number) {
      if (ends.size >= maxStreams && !ends.has(streamId)) ends.clear();
      ends.set(streamId, revision);
    },
  };
}

export type StreamEnds = ReturnType<typeof createStreamEnds>;
