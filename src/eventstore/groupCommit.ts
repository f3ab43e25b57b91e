/** What one request of a group came to: each succeeds or fails on its own. */
export type Outcome<Result> = { ok: true; result: Result } | { ok: false; error: unknown };

export interface GroupCommit<Request, Result> {
  /** Queues a request; resolves once the group holding it has committed. */
  submit(request: Request): Promise<Result>;
  /** Commits everything still queued, then refuses new requests. */
  close(): Promise<void>;
}

/**
 * Group commit: one commit runs at a time; requests that arrive while it runs wait for it and
 * are committed together next, at most `maxGroupSize` at once, so many requests share one
 * transaction (one fsync). `commit` runs a group and answers one outcome per request; if it
 * fails, every request of the group fails with its error. `afterCommit` runs after each group.
 */
export function createGroupCommit<Request, Result>(options: {
  maxGroupSize: number;
  commit: (group: Request[]) => Promise<Outcome<Result>[]>;
  afterCommit: () => void;
}): GroupCommit<Request, Result> {
  interface Pending {
    request: Request;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  }
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let closed = false;

  async function commitQueued() {
    while (queue.length > 0) {
      const group = queue.slice(0, options.maxGroupSize);
      queue = queue.slice(group.length);
      let outcomes;
      try {
        outcomes = await options.commit(group.map((pending) => pending.request));
      } catch (error) {
        for (const pending of group) pending.reject(error);
        continue;
      }
      group.forEach((pending, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) pending.resolve(outcome.result);
        else pending.reject(outcome ? outcome.error : new Error('the commit gave no outcome for this request'));
      });
      options.afterCommit();
    }
  }

  /** Starts committing on the next turn of the event loop, so that the requests of this turn go together. */
  function schedule() {
    if (running) return;
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(commitQueued)
      .finally(() => {
        running = null;
        // A request made while the last group's answers were handed out.
        if (queue.length > 0) schedule();
      });
  }

  return {
    submit(request) {
      if (closed) return Promise.reject(new Error('event store is closed'));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
    async close() {
      closed = true;
      while (running) await running;
    },
  };
}
