// Waits for a server a bench (or its smoke run under `npm test`) started, by its readiness, never
// by a fixed time: polls `url` until `ready(response)` holds, failing at once if the process
// exits first, and only after a generous deadline otherwise. Under `npm test` three smoke runs
// start servers under the TypeScript loader beside the other tests, and on a loaded machine
// (load average 10 and more on 2 cores) a start took longer than the 30 s these loops allowed.
const START_DEADLINE_MS = 180_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function untilAnswering(url, { child, what = 'the server', deadlineMs = START_DEADLINE_MS, ready = (res) => res.ok } = {}) {
  const started = Date.now();
  for (;;) {
    try {
      if (await ready(await fetch(url))) return;
    } catch {}
    if (child !== undefined && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before ${url} answered`);
    if (Date.now() - started > deadlineMs) throw new Error(`${what} did not answer ${url} within ${deadlineMs / 1000} s`);
    await sleep(100);
  }
}
