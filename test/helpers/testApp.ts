import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type AppDeps, buildApp, type App } from '../../src/runtime/app.js';
import { type Config, loadConfig } from '../../src/runtime/config.js';
import { type Engine, openEngine } from '../../src/runtime/engine.js';
import { loadWriteTokenKey } from '../../src/runtime/writeTokenKey.js';
import { mongoWorkerEnv } from './workerProcess.js';

export interface TestApp {
  app: App;
  engine: Engine;
  config: Config;
  dataDir: string;
  /** Every log line the app wrote, as text. */
  logs: string[];
  close(): Promise<void>;
}

/** A temporary data directory, removed when the test ends. */
export function tempDataDir(t: { teardown(fn: () => void): void }, prefix = 'matchlog-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The real application on a fresh SQLite data directory (unless given one), logs captured.
 * Closed when the test ends.
 */
export async function startTestApp(
  t: { teardown(fn: () => void | Promise<void>): void },
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'renderedCache' | 'observability'> = {},
): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? tempDataDir(t);
  // test/e2e/httpOnWorkers.test.ts reruns the HTTP suites with read models on MongoDB and a worker process.
  const engineEnv = process.env.MATCHLOG_TEST_READ_MODELS === 'mongodb-worker' ? await mongoWorkerEnv(t, dataDir) : {};
  // test/e2e/httpOnHelperThread.test.ts reruns the HTTP suites with every body read on the helper thread.
  const helperEnv = process.env.MATCHLOG_TEST_HELPER_THREAD_BYTES ? { HELPER_THREAD_BYTES: process.env.MATCHLOG_TEST_HELPER_THREAD_BYTES } : {};
  // Suites write (and are refused) many times from 127.0.0.1, on a machine whose load is not the
  // app's; the limits' own tests (test/http/hostileClients.test.ts) set them.
  const config = loadConfig({
    PUBLIC_BASE_URL: 'http://matchlog.test',
    WRITE_RATE_LIMIT: 'off',
    TOKEN_FAILURE_LIMIT: 'off',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...helperEnv,
    ...env,
    ...engineEnv,
    DATA_DIR: dataDir,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  let app: App | null = null;
  const engine = await openEngine(
    config,
    {
      info: (obj, msg) => app?.log.info(obj, msg),
      error: (obj, msg) => app?.log.error(obj, msg),
    },
    deps.observability,
  );
  app = await buildApp({
    config,
    engine,
    writeTokenKey: loadWriteTokenKey(config),
    logStream: stream,
    ...deps,
  });
  const built = app;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await built.close();
    await engine.close();
  };
  t.teardown(close);
  return { app: built, engine, config, dataDir, logs, close };
}

export const json = { 'content-type': 'application/json' };

/** The app's log lines, parsed (pino writes one JSON object a line). */
export const logLines = <Line>(logs: string[]): Line[] =>
  logs
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

/** The seed interface's fields of an upload's answer (id, url, crmSync), without the additive receipt (issue 35). */
export const seedFields = (body: unknown): Record<string, unknown> => {
  const { receipt: _receipt, ...seed } = body as Record<string, unknown>;
  return seed;
};
