import type { FastifyInstance } from 'fastify';
import { connectionBudget } from '../platform/openFilesLimit.js';

/** One log line per this many milliseconds at most, however often connections are refused. */
const REPORT_EVERY_MS = 5000;

export interface ConnectionLimits {
  maxConnections: number;
  openFilesLimit: number | null;
}

/**
 * Bounds the connections the server holds (server.maxConnections: one more is closed as soon
 * as it is accepted) and keeps running when the process runs out of file descriptors. libuv
 * sheds connections it cannot accept (EMFILE) by itself, with a spare descriptor; when even that
 * fails, Node reports the failed accept as an 'error' on the server, which would otherwise end
 * the process. Both are logged, at most once every few seconds with a count.
 */
export function registerConnectionLimits(app: FastifyInstance, { maxConnections, openFilesLimit }: ConnectionLimits) {
  const server = app.server;
  server.maxConnections = maxConnections;
  if (openFilesLimit !== null && maxConnections > connectionBudget(openFilesLimit)) {
    app.log.warn(
      { maxConnections, openFilesLimit, fits: connectionBudget(openFilesLimit) },
      'MAX_CONNECTIONS is more than the open-files limit (ulimit -n) leaves for connections; beyond it accepts fail (EMFILE) and are shed: raise ulimit -n or lower MAX_CONNECTIONS',
    );
  }
  const reported = { dropped: 0, failed: 0, code: '', since: 0 };
  const report = () => {
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    if (reported.dropped > 0) app.log.warn({ dropped: reported.dropped, maxConnections }, 'connections refused: MAX_CONNECTIONS reached');
    if (reported.failed > 0) app.log.error({ failed: reported.failed, code: reported.code, openFilesLimit }, 'connections refused: accepting failed (out of file descriptors?); shedding them and serving on');
    reported.dropped = 0;
    reported.failed = 0;
    reported.since = now;
  };
  server.on('drop', () => {
    reported.dropped += 1;
    report();
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    // Only a failed accept reaches here once listening: the listening socket itself stays open.
    reported.failed += 1;
    reported.code = error.code ?? String(error);
    report();
  });
}
