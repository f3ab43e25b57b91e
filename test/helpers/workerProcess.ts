import { fileURLToPath } from 'node:url';
import { type ServerProcess, startServerProcess } from './serverProcess.js';

const cli = fileURLToPath(new URL('../../src/cli/matchlog.ts', import.meta.url));

/** Starts `matchlog projections` as a real process; its health server listens on a free loopback port. */
export function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startServerProcess({ ...env }, cli, ['projections', '--status-interval', '1']);
}
