import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { connectionBudget } from '../platform/openFilesLimit.js';

/** One log line per this many milliseconds at most, however often connections are refused. */
const REPORT_EVERY_MS = 5000;

export interface ConnectionLimits {
  maxConnections: number;
  openFilesLimit: number | null;
  /** Behind a trusted proxy every connection comes from the proxy: no address is told apart at accept. */
  trustProxy: unknown;
}

/** Near the bound: when fewer than this many connections are left under MAX_CONNECTIONS. */
const nearMargin = (maxConnections: number) => Math.max(1, Math.floor(maxConnections / 20));

/** Near the bound, an address holding more than this share of MAX_CONNECTIONS has its new connections closed at accept. */
const heavyShare = (maxConnections: number) => Math.max(1, Math.floor(maxConnections / 8));

/**
 * Bounds the connections the server holds (server.maxConnections: one more is closed as soon
 * as it is accepted, the one bound that protects descriptors) and keeps running when the
 * process runs out of file descriptors. Near the bound, the last connections go to those who
 * hold few (./connections.ts, nearTheBound). libuv sheds connections it cannot accept (EMFILE)
 * by itself, with a spare descriptor; when even that fails, Node reports the failed accept as an
 * 'error' on the server, which would otherwise end the process. Each is logged, at most once
 * every few seconds with a count. What one client address may keep busy is counted per request
 * (./busyConnections.ts).
 */
export function registerConnectionLimits(app: FastifyInstance, { maxConnections, openFilesLimit, trustProxy }: ConnectionLimits) {
  const server = app.server;
  server.maxConnections = maxConnections;
  nearTheBound(server, maxConnections, trustProxy === false, {
    reclaimed: () => {
      reported.reclaimed += 1;
      report();
    },
    shed: () => {
      reported.shed += 1;
      report();
    },
  });
  if (openFilesLimit !== null && maxConnections > connectionBudget(openFilesLimit)) {
    app.log.warn(
      { maxConnections, openFilesLimit, fits: connectionBudget(openFilesLimit) },
      'MAX_CONNECTIONS is more than the open-files limit (ulimit -n) leaves for connections; ' +
        'beyond it accepts fail (EMFILE) and are shed: raise ulimit -n or lower MAX_CONNECTIONS',
    );
  }
  const reported = { dropped: 0, reclaimed: 0, shed: 0, failed: 0, code: '', since: 0 };
  const report = () => {
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    if (reported.dropped > 0) app.log.warn({ dropped: reported.dropped, maxConnections }, 'connections refused: MAX_CONNECTIONS reached');
    if (reported.reclaimed > 0)
      app.log.warn({ times: reported.reclaimed, maxConnections }, 'idle keep-alive connections closed: the server is near MAX_CONNECTIONS');
    if (reported.shed > 0)
      app.log.warn(
        { closed: reported.shed, maxConnections, heavy: heavyShare(maxConnections) },
        'connections refused near MAX_CONNECTIONS: their address already held more than an eighth of them',
      );
    if (reported.failed > 0)
      app.log.error(
        { failed: reported.failed, code: reported.code, openFilesLimit },
        'connections refused: accepting failed (out of file descriptors?); shedding them and serving on',
      );
    reported.dropped = 0;
    reported.reclaimed = 0;
    reported.shed = 0;
    reported.failed = 0;
    reported.since = now;
  };
  server.on('drop', () => {
    reported.dropped += 1;
    report();
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    // Before listening it is listen's own failure (a port taken), which the caller reports.
    if (!server.listening) return;
    // Only a failed accept reaches here once listening: the listening socket itself stays open.
    reported.failed += 1;
    reported.code = error.code ?? String(error);
    report();
  });
}

/**
 * What the server does when a new connection leaves fewer than a twentieth of `maxConnections`
 * free. First it closes as many of the longest idle keep-alive connections (never one carrying a
 * request or stream, nor one accepted that has not yet sent its first request), as nginx reuses
 * its idle ones when short of them: their clients simply connect again. Then, when the new
 * connection's address already holds more than an eighth of `maxConnections`, the new one is
 * closed at once: the last connections go to the clients that hold few (a probe, a scorer
 * elsewhere), not to the one or two addresses that took the rest. Far from the bound nothing is
 * refused at accept, whatever an address holds (a hall behind one NAT).
 */
function nearTheBound(server: Server, maxConnections: number, peerIsClient: boolean, events: { reclaimed(): void; shed(): void }) {
  const margin = nearMargin(maxConnections);
  const heavy = heavyShare(maxConnections);
  let held = 0;
  const byAddress = new Map<string, number>();
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
    const address = socket.remoteAddress ?? '';
    const holding = byAddress.get(address) ?? 0;
    held += 1;
    byAddress.set(address, holding + 1);
    socket.once('close', () => {
      held -= 1;
      idle.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
    if (held < maxConnections - margin) return;
    if (idle.size > 0) {
      let closed = 0;
      for (const oldest of idle) {
        if (closed >= margin) break;
        idle.delete(oldest);
        oldest.destroy();
        closed += 1;
      }
      events.reclaimed();
    }
    if (peerIsClient && holding >= heavy) {
      socket.destroy();
      events.shed();
    }
  });
}
