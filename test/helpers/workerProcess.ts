import { fileURLToPath } from 'node:url';
import { NO_MONGODB, testMongoUrl } from './mongo.js';
import { type ServerProcess, startServerProcess } from './serverProcess.js';

const cli = fileURLToPath(new URL('../../src/bin/matchlog.ts', import.meta.url));

/** Starts `matchlog projections` as a real process; its health server listens on a free loopback port. */
export function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startServerProcess({ ...env }, cli, ['projections', '--status-interval', '1']);
}

/**
 * Environment for an app whose read models live on the MongoDB-wire server of MONGODB_URL (a
 * fresh database) and whose projections run in a `matchlog projections` process started here
 * on the same DATA_DIR; the worker stops when the test ends.
 */
export async function mongoWorkerEnv(t: { teardown(fn: () => void | Promise<void>): void }, dataDir: string): Promise<Record<string, string>> {
  const readModelUrl = testMongoUrl(t);
  if (readModelUrl === null) throw new Error(NO_MONGODB);
  const worker = await startWorkerProcess({ DATA_DIR: dataDir, READ_MODEL_URL: readModelUrl });
  t.teardown(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
  });
  return { READ_MODEL_URL: readModelUrl, RUN_PROJECTIONS: 'no' };
}
