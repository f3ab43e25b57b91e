import { nextTurn } from './nextTurn.js';

/**
 * Shares the event loop's turns among costly stages of work (a large payload's read from the
 * log, its summary, its render): a stage starts at once while the stages of this turn have taken
 * less than `budgetMs`, else two turns later, after the loop has polled twice for I/O. Several first
 * renders of large pages asked at once then take turns of their own instead of holding the loop for
 * all of them in a row, and `/healthz` (or any request) is answered between them. Stages cheaper
 * than the budget, a real match's, run as before unless a costly one ran in the same turn.
 */
export function turnBudget(budgetMs: number) {
  let spent = 0;
  let resetting = false;
  function record(ms: number) {
    spent += ms;
    if (resetting) return;
    resetting = true;
    // Two turns on: the stages waiting meanwhile let the loop poll twice, so a request on a new
    // connection (accepted in one poll, read in the next) is answered before the next costly stage.
    setImmediate(() =>
      setImmediate(() => {
        spent = 0;
        resetting = false;
      }),
    );
  }
  return async function stage<T>(work: () => T | Promise<T>): Promise<T> {
    while (spent >= budgetMs) await nextTurn();
    const started = performance.now();
    const done = () => record(performance.now() - started);
    let result: T | Promise<T>;
    try {
      result = work();
    } catch (error) {
      done();
      throw error;
    }
    // Counted as soon as it ends: a synchronous stage, before any stage asked right after it starts.
    if (!(result instanceof Promise)) {
      done();
      return result;
    }
    try {
      return await result;
    } finally {
      done();
    }
  };
}
