import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import t, { type Test } from 'tap';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when Chromium is installed. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `Chromium not found at ${CHROMIUM_PATH} (install Debian's chromium package; .ci/run does)`;
}

/** A test that needs Chromium; where it is missing, a passing line says so and why instead. */
export function browserTest(name: string, fn: (t: Test) => Promise<void>): void {
  const missing = chromiumMissing();
  if (missing) {
    t.comment(`skipping browser tests: ${missing}`);
    t.pass('skipped: no Chromium');
    return;
  }
  t.test(name, fn);
}

/** Headless Debian Chromium, closed when the test ends. */
export async function launchChromium(t: { teardown(fn: () => Promise<void>): void }): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());
  return browser;
}

/**
 * Where browser tests save their screenshots: docs/screenshots when asked to refresh them
 * (`npm run docs:screenshots`), a temporary folder otherwise, so a test run leaves docs alone.
 */
export function screenshotDir(t: { teardown(fn: () => void): void }): string {
  if (process.env.UPDATE_SCREENSHOTS === '1') return 'docs/screenshots';
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-screenshots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
