/**
 * Polls `condition` every 100 ms until it holds, for up to `deadlineMs` (60 s: generous, so a
 * loaded machine waits longer rather than fails). Resolves whether it held, for the test to assert.
 * Tests wait for what they need this way, never for a fixed time.
 */
export async function until(condition: () => boolean | Promise<boolean>, deadlineMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
