/** What one request of a group came to: each succeeds or fails on its own. */
export type Outcome<Result> = { ok: true; result: Result } | { ok: false; error: unknown };

export interface GroupCommit<Request, Result> {
  /** Queues a request; resolves once the group holding it has committed. */
  submit(request: Request): Promise<Result>;
  /** Commits everything still queued, then refuses new requests. */
  close(): void;
}

/**
 * Group commit: requests that arrive while a commit is running wait for the next turn of the
 * event loop and are committed together, at most `maxGroupSize` at once, so many requests share
 * one transaction (one fsync). `commit` runs a group and answers one outcome per request; if it
 * throws, every request of the group fails with that error. `afterCommit` runs after each group.
 *
 * While writers are concurrent (the last group held more than one request), a group waits
 * `collectTurns` more turns of the event loop before it commits, so that the requests being read
 * in those turns join it, as PostgreSQL's commit_delay waits once commit_siblings are active.
 * A lone writer is committed at the next turn, as before.
 */
export function createGroupCommit<Request, Result>(options: {
  maxGroupSize: number;
  collectTurns?: number;
  commit: (group: Request[]) => Outcome<Result>[];
  afterCommit: () => void;
}): GroupCommit<Request, Result> {
  interface Pending {
    request: Request;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  }
  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;
  let lastGroupSize = 0;

  function flush() {
    scheduled = false;
    const group = queue.slice(0, options.maxGroupSize);
    lastGroupSize = group.length;
    queue = queue.slice(group.length);
    if (group.length === 0) return;
    if (queue.length > 0) schedule();
    let outcomes;
    try {
      outcomes = options.commit(group.map((pending) => pending.request));
    } catch (error) {
      for (const pending of group) pending.reject(error);
      return;
    }
    group.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) pending.resolve(outcome.result);
      else pending.reject(outcome ? outcome.error : new Error('the commit gave no outcome for this request'));
    });
    options.afterCommit();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    let turns = lastGroupSize > 1 ? (options.collectTurns ?? 0) : 0;
    const turn = () => {
      if (closed) return;
      if (turns > 0 && queue.length < options.maxGroupSize) {
        turns -= 1;
        setImmediate(turn);
      } else flush();
    };
    setImmediate(turn);
  }

  return {
    submit(request) {
      if (closed) return Promise.reject(new Error('event store is closed'));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
    close() {
      if (closed) return;
      while (queue.length > 0) flush();
      closed = true;
    },
  };
}
