import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

export interface BytesInFlightLimits {
  maxBytesInFlight: number;
  maxBodyBytes: number;
}

/** Methods whose bodies are never read: a body declared on them reserves nothing. */
const BODYLESS = new Set(['GET', 'HEAD']);

const refusal = () => new DomainError('unavailable', 'the server is receiving too many uploads at once (MAX_BYTES_IN_FLIGHT); retry in a few seconds', 2);

/** One client address's bytes in flight, and how many of its uploads hold them. */
interface AddressShare {
  bytes: number;
  uploads: number;
}

/** One upload's account: bytes counted so far, its address's share, and whether it was refused. */
interface Upload {
  bytes: number;
  share: AddressShare;
  refused: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The upload's bytes-in-flight account, when it has a body. */
    bytesInFlight: Upload | null;
  }
}

/** Where an upload's request stream keeps its account: the stream's own push, and what counts its bytes. */
const ACCOUNT = Symbol('bytes in flight');

interface CountedStream extends IncomingMessage {
  [ACCOUNT]: { push: IncomingMessage['push']; count(bytes: number): void };
}

/**
 * An upload's request stream's `push`, counting each body chunk. One function for every upload:
 * a function made per upload and set as the stream's own `push` kept each answered upload's
 * request, with its parsed body, reachable through young-generation collections, so every
 * create's body was promoted (~160 KB a create against ~13; docs/performance/steps.md, step 56).
 */
function countedPush(this: CountedStream, chunk: unknown, encoding?: BufferEncoding): boolean {
  const account = this[ACCOUNT];
  if (chunk instanceof Buffer) account.count(chunk.length);
  return account.push.call(this, chunk, encoding);
}

/**
 * A cap on request body bytes held at once, counted as they arrive: a slow client holds only
 * what it has sent, never what it declared. An upload is let in while its declared length (or
 * nothing, when chunked) still fits both the whole budget and its address's share of it (a
 * quarter, at least one body); one whose bytes then overrun either is answered 503 with
 * Retry-After at that chunk and the rest of its body is discarded, not held. Bytes are released
 * when the exchange ends however it ends (answered, refused or aborted). GET and HEAD reserve nothing.
 *
 * Counting costs a counter per chunk: the request stream's own `push` (which Node's HTTP parser
 * calls with each body chunk as it is read from the socket) is `countedPush`, one function for
 * every upload, which counts into the account the upload keeps on its stream.
 */
export function registerBytesInFlight(app: FastifyInstance, { maxBytesInFlight, maxBodyBytes }: BytesInFlightLimits) {
  const addressShare = Math.max(maxBodyBytes, Math.floor(maxBytesInFlight / 4));
  const shares = new Map<string, AddressShare>();
  let inFlight = 0;
  app.decorateRequest('bytesInFlight', null);

  function overrun(request: FastifyRequest, upload: Upload) {
    upload.refused = true;
    request.log.warn(
      { inFlight, address: request.ip, addressBytes: upload.share.bytes, maxBytesInFlight, addressShare },
      'upload refused: too many request bytes in flight',
    );
    // Heard by the body parser, which answers the error; without one yet, preParsing refuses it.
    if (request.raw.listenerCount('error') > 0) request.raw.emit('error', refusal());
  }

  app.addHook('onRequest', async (request, reply) => {
    const declared = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if ((declared === undefined && !chunked) || BODYLESS.has(request.method)) return;
    const length = chunked ? 0 : Number(declared);
    // Empty, or larger than the body limit (Fastify answers 413 without holding it).
    if (!chunked && (!(length > 0) || length > maxBodyBytes)) return;
    const share = shares.get(request.ip) ?? { bytes: 0, uploads: 0 };
    if (inFlight + length > maxBytesInFlight || share.bytes + length > addressShare) {
      request.log.warn(
        { inFlight, declared: length, address: request.ip, addressBytes: share.bytes, maxBytesInFlight, addressShare },
        'upload refused: too many request bytes in flight',
      );
      throw refusal();
    }
    if (share.uploads === 0) shares.set(request.ip, share);
    share.uploads += 1;
    const upload: Upload = { bytes: 0, share, refused: false };
    request.bytesInFlight = upload;
    const raw = request.raw as CountedStream;
    raw[ACCOUNT] = {
      push: raw.push,
      count(bytes) {
        if (upload.refused) return;
        upload.bytes += bytes;
        share.bytes += bytes;
        inFlight += bytes;
        if (inFlight > maxBytesInFlight || share.bytes > addressShare) overrun(request, upload);
      },
    };
    raw.push = countedPush;
    // Released once, however the exchange ends (answered, refused or aborted).
    reply.raw.once('close', () => {
      inFlight -= upload.bytes;
      share.bytes -= upload.bytes;
      upload.bytes = 0;
      upload.refused = true;
      share.uploads -= 1;
      if (share.uploads === 0) shares.delete(request.ip);
    });
  });

  // Bytes that overran the budget before the body parser listened.
  app.addHook('preParsing', async (request) => {
    if (request.bytesInFlight?.refused === true) throw refusal();
  });

  return { bytesInFlight: () => inFlight };
}
