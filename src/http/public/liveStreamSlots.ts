import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../../domain/errors.js';
import { errorBody, NO_SNIFF, statusOf } from '../errorHandling.js';

/** Seconds a refused viewer is asked to wait; the page's script waits longer still, and more each time. */
const REFUSED_RETRY_AFTER = 30;

/** One log line per this many milliseconds at most, however many streams are refused before routing. */
const REPORT_EVERY_MS = 5000;

export interface LiveStreamCaps {
  /** Streams held at once (MAX_LIVE_STREAMS); beyond it 503. */
  maxStreams: number;
  /** Streams one client address may hold (MAX_LIVE_STREAMS_PER_ADDRESS); beyond it 429. */
  maxStreamsPerAddress: number;
}

/**
 * A refused stream's connection is closed after its answer: a client that keeps asking for
 * streams it is refused pays a new connection each time, and only its own connection is closed;
 * its neighbours behind the same address (pages, uploads, their streams) are served as before.
 */
export const CLOSE_REFUSED = { connection: 'close' } as const;

/** Which cap refuses a stream: its address's share (429) or the total (503). */
export type StreamRefusal = 'per-address' | 'total';

/** The live streams held or being opened, in all and by client address: a slot is taken before the match is read. */
export interface LiveStreamSlots {
  /** Which cap refuses a stream from `address` now, or null when a slot is free. */
  refusal(address: string): StreamRefusal | null;
  /** Whether the total is reached, whatever the address. */
  full(): boolean;
  take(address: string): void;
  release(address: string): void;
}

export function createLiveStreamSlots({ maxStreams, maxStreamsPerAddress }: LiveStreamCaps): LiveStreamSlots {
  let held = 0;
  const byAddress = new Map<string, number>();
  return {
    refusal(address) {
      if ((byAddress.get(address) ?? 0) >= maxStreamsPerAddress) return 'per-address';
      if (held >= maxStreams) return 'total';
      return null;
    },
    full: () => held >= maxStreams,
    take(address) {
      held += 1;
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    },
    release(address) {
      held -= 1;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    },
  };
}

/** The error the route answers a refused stream with (the app's one mapping: 429 or 503, Retry-After, JSON or the error page). */
export function streamRefusalError(refusal: StreamRefusal, { maxStreamsPerAddress }: LiveStreamCaps): DomainError {
  return refusal === 'per-address'
    ? new DomainError(
        'too_many_requests',
        `too many live update streams from your address (MAX_LIVE_STREAMS_PER_ADDRESS is ${maxStreamsPerAddress}); ` +
          'reload the page for the latest, or retry later',
        REFUSED_RETRY_AFTER,
      )
    : new DomainError(
        'unavailable',
        'the server is holding as many live update streams as it can (MAX_LIVE_STREAMS); reload the page for the latest, or retry later',
        REFUSED_RETRY_AFTER,
      );
}

export interface EarlyRefusalDeps {
  slots: LiveStreamSlots;
  caps: LiveStreamCaps;
  /** Whether a client's address is its peer's (no trusted proxy): only then is the per-address cap known before routing. */
  peerIsClient: boolean;
  /** The headers every answer carries (security headers, CORS's Vary) and its request id, as the app's hooks set them. */
  setCommonHeaders(req: IncomingMessage, res: ServerResponse): void;
  /** A warning line, for the refusals answered here (they have no access line): one every few seconds at most, with counts. */
  warn(fields: Record<string, number>, message: string): void;
}

const LIVE_PATH = /^\/match\/[^/?]+\/live(?:\?|$)/;

/**
 * A live stream the caps refuse anyway is answered before routing and the app's hooks, with the
 * same status, headers and JSON body the route's refusal has: a client opening streams by the
 * thousand costs the server little more than the connections themselves (a refusal through
 * the whole app cost ~300 µs of CPU). Returns false for every other request, and for those the
 * route must decide: an address behind a trusted proxy, a browser that would get the HTML error
 * page, a slot free. The route checks the caps again; this only answers sooner.
 */
export function earlyStreamRefusal({ slots, caps, peerIsClient, setCommonHeaders, warn }: EarlyRefusalDeps) {
  const answers = {
    'per-address': preparedAnswer(streamRefusalError('per-address', caps)),
    total: preparedAnswer(streamRefusalError('total', caps)),
  };
  const reported = { 'per-address': 0, total: 0, since: 0 };
  const report = (refusal: StreamRefusal) => {
    reported[refusal] += 1;
    const now = Date.now();
    if (now - reported.since < REPORT_EVERY_MS) return;
    warn(
      { perAddress: reported['per-address'], total: reported.total, ...caps },
      'live streams refused: MAX_LIVE_STREAMS_PER_ADDRESS (429) or MAX_LIVE_STREAMS (503) reached',
    );
    reported['per-address'] = 0;
    reported.total = 0;
    reported.since = now;
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || req.url === undefined || !LIVE_PATH.test(req.url)) return false;
    if (/html/i.test(req.headers.accept ?? '')) return false;
    const address = req.socket.remoteAddress ?? '';
    const refusal = peerIsClient ? slots.refusal(address) : slots.full() ? 'total' : null;
    if (refusal === null) return false;
    const answer = answers[refusal];
    setCommonHeaders(req, res);
    res.writeHead(answer.statusCode, answer.headers);
    res.end(answer.body);
    report(refusal);
    return true;
  };
}

function preparedAnswer(refusal: DomainError) {
  const statusCode = statusOf[refusal.code];
  const body = JSON.stringify(errorBody(statusCode, refusal.message));
  return {
    statusCode,
    body,
    headers: {
      ...NO_SNIFF,
      'retry-after': String(refusal.retryAfter),
      ...CLOSE_REFUSED,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
    },
  };
}
