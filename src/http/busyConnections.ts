import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** Seconds a client refused for its address's share is asked to wait: a page load or upload in flight ends within a few. */
const BUSY_RETRY_AFTER = 5;

/** Where the pages' static assets are served (./public/assets.ts): not counted. */
const ASSETS = '/assets/';

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
    // The pages' scripts and stylesheets are kept bytes, answered at once: a refused page's error page needs them.
    if (request.url.startsWith(ASSETS)) {
      done();
      return;
    }
    const address = request.ip;
    const count = busy.get(address) ?? 0;
    if (count >= max) {
      report();
      done(
        new DomainError(
          'unavailable',
          `your network already has as many requests and live streams in progress as one address may (MAX_CONNECTIONS_PER_ADDRESS, ${max}); ` +
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
