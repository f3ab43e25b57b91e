import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../domain/errors.js';
import { isMatchId } from '../../domain/matchId.js';
import { spreadHeartbeat } from '../../live/heartbeat.js';
import type { MatchFeed } from '../../live/matchFeed.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { readPublicView } from '../../../projections/publicView.js';
import { CLOSE_REFUSED, type LiveStreamCaps, type LiveStreamSlots, streamRefusalError } from './liveStreamSlots.js';

export interface LiveUpdatesDeps {
  feed: MatchFeed;
  readModel: ReadModelReader;
  caps: LiveStreamCaps;
  /** The streams held, shared with the refusals answered before routing (earlyStreamRefusal). */
  slots: LiveStreamSlots;
  /** A comment line this often keeps proxies from closing an idle stream (each stream's, spread over the interval). */
  heartbeatMs?: number;
}

/** A revision number from Last-Event-ID (header, or query for clients that cannot set it). */
function lastEventId(value: unknown): number | null {
  return typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/**
 * What a held stream keeps in memory: Node's response and socket, not Fastify's request, reply
 * and request logger. Fastify's 'finish' and 'error' listener (its access line and onResponse
 * hooks) holds those for as long as the stream is open, and a stream never reaches it: it ends
 * with 'close', when its viewer leaves or at shutdown. The head Node built line by line stays a
 * rope of ~75 strings until something flattens it (ToNumber does, in place: pino's flatstr).
 * ~2.4 KB of heap a stream, ~35 MB at match day's 15,000 (docs/performance/steps.md, step 58).
 */
function slim(stream: ServerResponse): void {
  for (const listener of stream.listeners('finish')) {
    if (listener.name !== 'onResFinished') continue;
    stream.removeListener('finish', listener as () => void);
    stream.removeListener('error', listener as () => void);
  }
  // A write to a stream gone wrong ends in its 'close'; without a listener an 'error' would end the process.
  stream.on('error', () => {});
  if ('_header' in stream) void (Number(stream._header) | 0);
}

const revisionEvent = (revision: number) => `id: ${revision}\nevent: revision\ndata: {"revision":${revision}}\n\n`;
/** The match is gone (erased): the page says so and stops listening; the stream ends. */
const GONE_EVENT = 'event: gone\ndata: {}\n\n';

/**
 * GET /match/:id/live: Server-Sent Events, one `revision` event each time the public view
 * of the match moves on. Fed by the read side's match feed, so it works whichever process
 * took the write. A reconnect with Last-Event-ID older than the current revision gets the
 * current one at once; without it the first event is the current revision.
 */
export const liveUpdates: FastifyPluginAsync<LiveUpdatesDeps> = async (app, { feed, readModel, caps, slots, heartbeatMs = 15_000 }) => {
  const open = new Set<ServerResponse>();
  const heartbeat = spreadHeartbeat<ServerResponse>(heartbeatMs, (stream) => stream.write(': heartbeat\n\n'));
  app.addHook('preClose', async () => {
    heartbeat.stop();
    // Viewers reconnect (to another process, or this one restarted) with Last-Event-ID.
    for (const stream of open) stream.destroy();
    open.clear();
  });

  app.get<{ Params: { id: string }; Querystring: { lastEventId?: string } }>('/match/:id/live', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    const address = request.ip;
    // Refused before any read (most refusals are answered before routing: earlyStreamRefusal).
    const refusal = slots.refusal(address);
    if (refusal !== null) {
      reply.headers(CLOSE_REFUSED);
      throw streamRefusalError(refusal, caps);
    }
    slots.take(address);
    let doc;
    try {
      doc = isMatchId(id) ? await readPublicView(readModel, id) : null;
    } catch (error) {
      slots.release(address);
      throw error;
    }
    // The app's JSON error answer; the id is not repeated back.
    if (doc === null) {
      slots.release(address);
      throw notFound('no match with this id; live updates are only for matches that exist');
    }
    const seen = lastEventId(request.headers['last-event-id']) ?? lastEventId(request.query.lastEventId);
    reply.hijack();
    // Gone while the match was read: its 'close' has been and gone too.
    if (request.raw.socket.destroyed) {
      slots.release(address);
      return;
    }
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // Never reused for another request: a stream ended at shutdown closes its socket too.
      connection: 'close',
      'x-content-type-options': 'nosniff',
      'x-request-id': request.id,
    });
    stream.write('retry: 3000\n\n');
    slim(stream);
    if (seen === null || seen < doc.revision) stream.write(revisionEvent(doc.revision));
    open.add(stream);
    heartbeat.add(stream);
    const unwatch = feed.watch(id, doc.revision, (revision) => {
      if (revision === null) {
        stream.end(GONE_EVENT);
        return;
      }
      stream.write(revisionEvent(revision));
      heartbeat.wrote(stream);
    });
    stream.once('close', () => {
      unwatch();
      open.delete(stream);
      heartbeat.delete(stream);
      slots.release(address);
    });
  });
};
