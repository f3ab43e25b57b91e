import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core';
import t, { type Test } from 'tap';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when Chromium is installed. */
function chromiumMissing(): string | null {
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
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
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

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's critical and serious violations of a page at 360 and 1280 px, light and dark (as
 * a test assertion each). `storageState` carries a signed-in session to pages behind a login.
 */
export async function checkAccessibility(t: Test, browser: Browser, url: string, label: string, storageState?: BrowserContextOptions['storageState']) {
  for (const width of [360, 1280]) {
    for (const dark of [false, true]) {
      // axe is injected by the test, so this context alone bypasses the page's CSP.
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        colorScheme: dark ? 'dark' : 'light',
        bypassCSP: true,
        ...(storageState ? { storageState } : {}),
      });
      const page = await context.newPage();
      await page.goto(url);
      await page.evaluate(axeSource);
      const violations = (await page.evaluate(
        `axe.run(document, { resultTypes: ['violations'] }).then((r) =>
          r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
      )) as { id: string; impact: string; targets: string[] }[];
      const serious = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
      t.same(
        serious,
        [],
        `axe ${label} at ${width} px ${dark ? 'dark' : 'light'}: 0 critical/serious ` +
          `(${violations.length} minor: ${violations.map((v) => v.id).join(', ') || 'none'})`,
      );
      await context.close();
    }
  }
}

/** A browser session holding a logged-in dashboard's cookies (a client's jar, name → value) for `host`. */
export function cookieSession(jar: Iterable<[string, string]>, host: string): Exclude<BrowserContextOptions['storageState'], string | undefined> {
  const cookies = [...jar].map(([name, value]) => ({
    name,
    value,
    domain: host,
    path: '/',
    expires: -1,
    httpOnly: true,
    secure: false,
    sameSite: 'Lax' as const,
  }));
  return { cookies, origins: [] };
}
