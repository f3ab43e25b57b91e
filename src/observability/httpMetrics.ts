import type { FastifyInstance } from 'fastify';
import type { MatchFeed } from '../live/matchFeed.js';
import type { Metrics } from './metrics.js';

/** The match upload routes: their refusals are write outcomes too (403, 413, 429, 503, 507, ...). */
const WRITE_ROUTES = new Set(['POST /api/matches', 'PUT /api/matches/:id']);

/**
 * Every answered request into the latency histogram by method, route pattern (not the URL: ids
 * would make a series each) and status. One child per label set is kept, so a request costs a
 * map lookup and a bucket increment. Hijacked replies (live streams) are counted by observeFeed.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics) {
  const children = new Map<string, { observe(seconds: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${request.method} ${route} ${status}`;
    let child = children.get(key);
    if (child === undefined) {
      child = metrics.httpRequestSeconds.labels({ method: request.method, route, status: String(status) });
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    if (status >= 400 && WRITE_ROUTES.has(`${request.method} ${route}`)) metrics.writes.inc({ outcome: String(status) });
    done();
  });
}

/** The live-update feed, counted: streams open (one watch each) and revision events pushed to them. */
export function observeFeed(feed: MatchFeed, metrics: Metrics): MatchFeed {
  return {
    watch(matchId, known, listener) {
      metrics.liveStreamsOpen.inc();
      const unwatch = feed.watch(matchId, known, (revision) => {
        metrics.liveEventsSent.inc();
        listener(revision);
      });
      let watching = true;
      return () => {
        if (watching) metrics.liveStreamsOpen.dec();
        watching = false;
        unwatch();
      };
    },
    size: () => feed.size(),
    close: () => feed.close(),
  };
}
