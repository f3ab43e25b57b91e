/**
 * Where streams end, as far as this connection knows, so that a read of what follows a
 * stream's known end (a command whose state is cached, the app-key check of every club sync)
 * need not ask the file. Learnt from this process's own commits and from reads that reached a
 * stream's end.
 *
 * What is known holds only while no other connection has committed: `dataVersion` (SQLite's
 * `PRAGMA data_version`) changes exactly then, and everything known is forgotten. A revoked
 * app key or a command of another process is therefore seen by the very next read, as before.
 */
export function createStreamEnds(dataVersion: () => number, maxStreams = 10_000) {
  /** Stream id → the revision from which it surely has no event. */
  const ends = new Map<string, number>();
  let version = dataVersion();

  return {
    /**
     * True when the stream surely has no event at `revision` or after it. The data version is
     * asked only when the answer could be yes: a stream not known (each new match) costs nothing.
     */
    endsBefore(streamId: string, revision: number): boolean {
      const end = ends.get(streamId);
      if (end === undefined || end > revision) return false;
      const now = dataVersion();
      if (now === version) return true;
      ends.clear();
      version = now;
      return false;
    },

    /** The stream has no event at `revision` or after it (just read, or just committed here). */
    endsAt(streamId: string, revision: number) {
      if (ends.size >= maxStreams && !ends.has(streamId)) ends.clear();
      ends.set(streamId, revision);
    },
  };
}
