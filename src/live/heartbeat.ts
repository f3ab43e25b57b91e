/** How often a heartbeat tick runs at most: each tick writes to one slice of the streams. */
const TICK_MS = 100;

export interface Heartbeat<Stream> {
  add(stream: Stream): void;
  /** Something else was written to the stream: its next beat is skipped. */
  wrote(stream: Stream): void;
  delete(stream: Stream): void;
  stop(): void;
}

/**
 * Calls `beat` on every added stream once per `intervalMs`, spread over the interval: the
 * streams are dealt round-robin into slices and one slice beats per tick (every 100 ms, or
 * `intervalMs` when shorter), so 15,000 streams cost ~100 writes a tick instead of one
 * event-loop turn of 15,000 writes every interval, which held every request, and the accept
 * of every new connection, for 0.3–0.6 s. A stream written to since its last turn is not
 * beaten (a live match's revisions keep its streams busy), so none is silent for more than two
 * intervals.
 */
export function spreadHeartbeat<Stream>(intervalMs: number, beat: (stream: Stream) => void): Heartbeat<Stream> {
  const slices = Array.from({ length: Math.max(1, Math.round(intervalMs / TICK_MS)) }, () => new Set<Stream>());
  const sliceOf = new Map<Stream, Set<Stream>>();
  const written = new Set<Stream>();
  let dealt = 0;
  let turn = 0;
  const timer = setInterval(() => {
    const slice = slices[turn % slices.length]!;
    turn += 1;
    for (const stream of slice) if (!written.delete(stream)) beat(stream);
  }, intervalMs / slices.length);
  timer.unref();
  return {
    add(stream) {
      const slice = slices[dealt % slices.length]!;
      dealt += 1;
      slice.add(stream);
      sliceOf.set(stream, slice);
    },
    wrote(stream) {
      if (sliceOf.has(stream)) written.add(stream);
    },
    delete(stream) {
      sliceOf.get(stream)?.delete(stream);
      sliceOf.delete(stream);
      written.delete(stream);
    },
    stop() {
      clearInterval(timer);
    },
  };
}
