/**
 * A sleep that something else can end early: `sleep(ms)` resolves after `ms`, or as soon as
 * `wake()` is called (a no-op while nobody sleeps). For loops that poll or back off but should
 * react at once to new data or to being stopped.
 */
export function wakeableSleep() {
  let wake: (() => void) | null = null;
  return {
    sleep(ms: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    },
    wake() {
      wake?.();
    },
  };
}
