import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** Seconds a client refused for its address's share is asked to wait: a page load or upload in flight ends within a few. */
const BUSY_RETRY_AFTER = 5;

/** One log line per this many milliseconds at most, however many requests are refused. */
const REPORT_EVERY_MS = 5000;

/**
 * Connections one client address may keep busy (MAX_CONNECTIONS_PER_ADDRESS): a connection counts
 * while it carries a request or a live stream, from the request's arrival to its answer's end, so
 * the idle keep-alive connections of a hall full of phones behind one NAT cost nothing (as nginx's
 * limit_conn counts). One more is answered 503 with Retry-After, over HTTP: a browser gets the
 * match page's error page with its reload link, an app the JSON message; nothing is reset.
 * The address is the client's (request.ip: the peer, or the client a trusted proxy names).
 * Idle connections are bounded by MAX_CONNECTIONS and reclaimed near it (./connections.ts).
 */
export function registerBusyConnectionLimit(app: FastifyInstance, max: number) {
  const busy = new Map<string, number>();
  const reported = { refused: 0, since: 0 };
  const report = () => {
    reported.refused += 1;
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    app.log.warn({ refused: reported.refused, maxConnectionsPerAddress: max }, 'requests refused: MAX_CONNECTIONS_PER_ADDRESS busy connections reached (503)');
    reported.refused = 0;
    reported.since = now;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const address = request.ip;
    const count = busy.get(address) ?? 0;
    if (count >= max) {
      report();
      done(
        new DomainError(
          'unavailable',
          `your network has ${max} requests and live streams in progress at once (MAX_CONNECTIONS_PER_ADDRESS), as many as one address may; ` +
            `reload the page or retry in ${BUSY_RETRY_AFTER} s`,
          BUSY_RETRY_AFTER,
        ),
      );
      return;
    }
    busy.set(address, count + 1);
    reply.raw.once('close', () => {
      const left = (busy.get(address) ?? 1) - 1;
      if (left > 0) busy.set(address, left);
      else busy.delete(address);
    });
    done();
  });
}
