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
 */
export function createGroupCommit<Request, Result>(options: {
  maxGroupSize: number;
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

  function flush() {
    scheduled = false;
    const group = queue.slice(0, options.maxGroupSize);
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
    setImmediate(() => {
      if (!closed) flush();
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
    close() {
      if (closed) return;
      while (queue.length > 0) flush();
      closed = true;
    },
  };
}
