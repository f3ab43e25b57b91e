import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { connectionBudget } from '../platform/openFilesLimit.js';

/** One log line per this many milliseconds at most, however often connections are refused. */
const REPORT_EVERY_MS = 5000;

export interface ConnectionLimits {
  maxConnections: number;
  openFilesLimit: number | null;
}

/** Idle keep-alive connections are closed when this few connections are left under MAX_CONNECTIONS. */
const reclaimMargin = (maxConnections: number) => Math.max(1, Math.floor(maxConnections / 20));

/**
 * Bounds the connections the server holds (server.maxConnections: one more is closed as soon
 * as it is accepted) and keeps running when the process runs out of file descriptors. Idle
 * keep-alive connections are free until the server nears its bound; then they are closed (as
 * nginx reuses its idle keep-alive connections when short of them), so the descriptors they held
 * serve new clients, and a client sending its next request on one simply connects again.
 * libuv sheds connections it cannot accept (EMFILE) by itself, with a spare descriptor; when
 * even that fails, Node reports the failed accept as an 'error' on the server, which would
 * otherwise end the process. Both are logged, at most once every few seconds with a count.
 * What one client address may keep busy is counted per request (./busyConnections.ts).
 */
export function registerConnectionLimits(app: FastifyInstance, { maxConnections, openFilesLimit }: ConnectionLimits) {
  const server = app.server;
  server.maxConnections = maxConnections;
  reclaimIdleNearTheBound(server, maxConnections, () => {
    reported.reclaimed += 1;
    report();
  });
  if (openFilesLimit !== null && maxConnections > connectionBudget(openFilesLimit)) {
    app.log.warn(
      { maxConnections, openFilesLimit, fits: connectionBudget(openFilesLimit) },
      'MAX_CONNECTIONS is more than the open-files limit (ulimit -n) leaves for connections; ' +
        'beyond it accepts fail (EMFILE) and are shed: raise ulimit -n or lower MAX_CONNECTIONS',
    );
  }
  const reported = { dropped: 0, reclaimed: 0, failed: 0, code: '', since: 0 };
  const report = () => {
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    if (reported.dropped > 0) app.log.warn({ dropped: reported.dropped, maxConnections }, 'connections refused: MAX_CONNECTIONS reached');
    if (reported.reclaimed > 0)
      app.log.warn({ times: reported.reclaimed, maxConnections }, 'idle keep-alive connections closed: the server is near MAX_CONNECTIONS');
    if (reported.failed > 0)
      app.log.error(
        { failed: reported.failed, code: reported.code, openFilesLimit },
        'connections refused: accepting failed (out of file descriptors?); shedding them and serving on',
      );
    reported.dropped = 0;
    reported.reclaimed = 0;
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

/**
 * Closes the longest idle keep-alive connections when a new connection leaves fewer than the
 * margin under `maxConnections`: as many as the margin, never one that is carrying a request or
 * stream, nor one accepted that has not yet sent its first request.
 */
function reclaimIdleNearTheBound(server: Server, maxConnections: number, reclaimed: () => void) {
  const margin = reclaimMargin(maxConnections);
  let held = 0;
  /** Sockets between an answer's end and their next request, longest idle first (a Set keeps insertion order). */
  const idle = new Set<Socket>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    idle.delete(socket);
    response.once('finish', () => {
      if (!socket.destroyed) idle.add(socket);
    });
  });
  server.on('connection', (socket: Socket) => {
    held += 1;
    socket.once('close', () => {
      held -= 1;
      idle.delete(socket);
    });
    if (held < maxConnections - margin || idle.size === 0) return;
    let closed = 0;
    for (const oldest of idle) {
      if (closed >= margin) break;
      idle.delete(oldest);
      oldest.destroy();
      closed += 1;
    }
    reclaimed();
  });
}
