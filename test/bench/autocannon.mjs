// autocannon for the benchmarks, with response bodies kept as Latin-1 instead of UTF-8 text.
// autocannon appends every body to a string (`body += chunk`), decoding the bytes as UTF-8. JSON
// decodes fast, but a brotli or gzip body is not UTF-8: on Node 20.20 decoding 10 KB of it costs
// the client ~0.1 ms (11 µs a KB against 0.1 for ASCII), so on the compressed page the client set
// the pace (~8,000 req/s, the server idle two thirds of the time). Latin-1 costs the same as UTF-8
// on ASCII and as little on any other byte. No benchmark here reads a body; bytes are counted
// apart from it (docs/performance/steps.md, step 44).
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function addBodyAsLatin1(data) {
  const request = this.peek();
  if (request) request.body += data.toString('latin1');
};

/**
 * autocannon requests that take each connection through `count` steps of one thing (a match's
 * uploads), then start another. autocannon gives a connection a fresh `context` each time its
 * list of requests starts over, so a list of one request keeps nothing from one request to the
 * next (until session 28 the live-match rows measured a new match's first upload every time):
 * here the list holds a request a step, `start()` makes the thing at step 0, and
 * `step(request, thing, k)` builds step k's request. A step that finds its thing gone throws.
 */
export const inTurn = (count, start, step) =>
  Array.from({ length: count }, (_, k) => ({
    setupRequest(request, context) {
      if (k === 0) context.thing = start();
      if (context.thing === undefined) throw new Error(`step ${k} of ${count} lost what step 0 made: every request would start anew`);
      return step(request, context.thing, k);
    },
  }));

export default autocannon;
