import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { connectionBudget } from '../platform/openFilesLimit.js';
import type { ShutOutAddresses } from './shutOutAddresses.js';

/** One log line per this many milliseconds at most, however often connections are refused. */
const REPORT_EVERY_MS = 5000;

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  openFilesLimit: number | null;
  /** Behind a trusted proxy every client shares the proxy's address: no per-address cap then. */
  trustProxy: unknown;
}

/** Addresses whose new connections are closed at accept for a while (./shutOutAddresses.ts). */
type ShutOut = Pick<ShutOutAddresses, 'isShut'>;

/**
 * Bounds the connections the server holds (server.maxConnections: one more is closed as soon
 * as it is accepted) and keeps running when the process runs out of file descriptors. libuv
 * sheds connections it cannot accept (EMFILE) by itself, with a spare descriptor; when even that
 * fails, Node reports the failed accept as an 'error' on the server, which would otherwise end
 * the process. Both are logged, at most once every few seconds with a count.
 */
export function registerConnectionLimits(
  app: FastifyInstance,
  { maxConnections, maxConnectionsPerAddress, openFilesLimit, trustProxy }: ConnectionLimits,
  shutOut: ShutOut,
) {
  const server = app.server;
  server.maxConnections = maxConnections;
  if (trustProxy === false)
    capPerAddress(server, maxConnectionsPerAddress, shutOut, (why) => {
      reported[why] += 1;
      report();
    });
  if (openFilesLimit !== null && maxConnections > connectionBudget(openFilesLimit)) {
    app.log.warn(
      { maxConnections, openFilesLimit, fits: connectionBudget(openFilesLimit) },
      'MAX_CONNECTIONS is more than the open-files limit (ulimit -n) leaves for connections; ' +
        'beyond it accepts fail (EMFILE) and are shed: raise ulimit -n or lower MAX_CONNECTIONS',
    );
  }
  const reported = { dropped: 0, perAddress: 0, shutOut: 0, failed: 0, code: '', since: 0 };
  const report = () => {
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    if (reported.dropped > 0) app.log.warn({ dropped: reported.dropped, maxConnections }, 'connections refused: MAX_CONNECTIONS reached');
    if (reported.perAddress > 0)
      app.log.warn({ closed: reported.perAddress, maxConnectionsPerAddress }, 'connections refused: MAX_CONNECTIONS_PER_ADDRESS reached');
    if (reported.shutOut > 0)
      app.log.warn({ closed: reported.shutOut }, 'connections refused: their address kept opening live streams it was refused, shut out for a while');
    if (reported.failed > 0)
      app.log.error(
        { failed: reported.failed, code: reported.code, openFilesLimit },
        'connections refused: accepting failed (out of file descriptors?); shedding them and serving on',
      );
    reported.dropped = 0;
    reported.perAddress = 0;
    reported.shutOut = 0;
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
 * Closes a new connection at once when its peer address already holds `max`: one client, however
 * many sockets it opens, cannot take the connections everyone else needs (a gym behind one NAT
 * has its live streams and as many again). And while its address is shut out.
 */
function capPerAddress(server: Server, max: number, shutOut: ShutOut, refused: (why: 'perAddress' | 'shutOut') => void) {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (held.get(address) ?? 0) + 1;
    const why = count > max ? 'perAddress' : shutOut.isShut(address) ? 'shutOut' : null;
    if (why !== null) {
      refused(why);
      socket.destroy();
      return;
    }

    held.set(address, count);
    socket.once('close', () => {
      const left = (held.get(address) ?? 1) - 1;
      if (left === 0) held.delete(address);
      else held.set(address, left);
    });
  });
}
