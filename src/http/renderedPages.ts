import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MatchSummary } from '../domain/matchPayload.js';
import { createLru } from '../platform/lru.js';
import { turnBudget } from '../platform/turnBudget.js';
import { noteInAccessLog } from './accessLog.js';
import { createOldVersions, OLD_VERSION_LIMITS, type OldVersionLimits } from './oldVersions.js';
import { matchOfKey } from './renderedKeys.js';

type Encoding = 'br' | 'gzip';

/** A rendered response kept as bytes, with compressed copies made the first time they are asked for. */
export interface RenderedBody {
  bytes: Buffer;
  etag: string;
  type: string;
  /** 200, or the status of a failed render kept as its error page (so repeating it costs nothing). */
  status: number;
  gzip?: Buffer;
  br?: Buffer;
  /** Copies being made: concurrent requests wait for the one being made instead of making their own. */
  pending?: Partial<Record<Encoding, Promise<Buffer>>>;
  /** Set by the cache that keeps the body: re-counts its bytes once a copy is attached. */
  grew?: () => void;
}

const strongEtag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;

export function renderedBody(text: string, type = 'text/html; charset=utf-8', { etag, status = 200 }: { etag?: string; status?: number } = {}): RenderedBody {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, type, status, etag: etag ?? strongEtag(bytes) };
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'] });

/** Whether the request's If-None-Match names this ETag (weak or strong, or `*`). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const given = request.headers['if-none-match'];
  if (given === undefined) return false;
  return given.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Bodies above this are compressed on libuv's thread pool, not on the event loop. */
const ASYNC_COMPRESS_BYTES = 64 * 1024;
/**
 * Above this, brotli quality 1 instead of 5: for a 3.2 MB match, 8 ms of CPU instead of 74 for
 * 406 KB instead of 226 KB (quality 4 costs 59 ms for 454 KB), so that uploading between GETs
 * cannot buy much compression work; matches are 50–100 KB and keep quality 5.
 */
const LARGE_BODY_BYTES = 1024 * 1024;

const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);
const gzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gzip);

function compress(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  const quality = bytes.length > LARGE_BODY_BYTES ? 1 : 5;
  const brotli: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } };
  const gzipped: ZlibOptions = { level: 6 };
  if (bytes.length > ASYNC_COMPRESS_BYTES) return encoding === 'br' ? brotliAsync(bytes, brotli) : gzipAsync(bytes, gzipped);
  return Promise.resolve(encoding === 'br' ? brotliCompressSync(bytes, brotli) : gzipSync(bytes, gzipped));
}

/** The body's copy in `encoding`, made once per body; the request that made it says so on its access line. */
function copyOf(request: FastifyRequest, body: RenderedBody, encoding: Encoding): Buffer | Promise<Buffer> {
  const made = body[encoding];
  if (made !== undefined) return made;
  const pending = body.pending?.[encoding];
  if (pending !== undefined) return pending;
  noteInAccessLog(request, { compressedNow: encoding });
  const making = compress(body.bytes, encoding).then(
    (copy) => {
      body[encoding] = copy;
      delete body.pending?.[encoding];
      body.grew?.();
      return copy;
    },
    (error: unknown) => {
      delete body.pending?.[encoding];
      throw error;
    },
  );
  body.pending ??= {};
  body.pending[encoding] = making;
  return making;
}

/**
 * Sends a rendered body: 304 when the client has it, else the bytes in the best encoding the
 * client accepts. Compressed copies are made once per body, large ones off the event loop, so a
 * cached body costs no compression per request (and @fastify/compress leaves an encoded reply
 * alone). A kept error page goes out with its status and is never stored by clients.
 */
export async function sendRendered(request: FastifyRequest, reply: FastifyReply, body: RenderedBody, compress: boolean) {
  reply.header('vary', 'accept-encoding').type(body.type);
  if (body.status !== 200) reply.code(body.status).header('cache-control', 'no-store');
  else {
    reply.header('etag', body.etag);
    if (notModified(request, body.etag)) return reply.code(304).send();
  }
  const accepted = compress && body.bytes.length > 1024 ? encodings.negotiate(request.headers['accept-encoding'] ?? '') : null;
  if (accepted === 'br' || accepted === 'gzip') {
    const copy = await copyOf(request, body, accepted);
    return reply.header('content-encoding', accepted).send(copy);
  }
  return reply.send(body.bytes);
}

/** Bookkeeping per kept body beside its bytes (the box, the key, the map's slot). */
const ENTRY_OVERHEAD_BYTES = 256;
const weightOf = (body: RenderedBody) => body.bytes.length + (body.gzip?.length ?? 0) + (body.br?.length ?? 0) + ENTRY_OVERHEAD_BYTES;

/** A version's summary, kept for every render of it, weighed by its payload's length. */
export interface KeptSummary {
  summary: MatchSummary;
  chars: number;
}

/**
 * Milliseconds of reads, summaries and renders run in one turn of the event loop before the next
 * waits for it to poll twice (src/platform/turnBudget.ts): a first render of a 2.9 MB payload holds the
 * loop ~35 ms to read it from the log, ~30 ms to summarise it and 10–100 ms to render it, and
 * several asked at once held it for all of them in a row.
 */
const STAGE_BUDGET_MS = 10;

/**
 * Rendered bodies (pages, embeds, API answers, QR codes) by key, in one byte budget
 * (PAGE_CACHE_BYTES): each weighs its bytes and the compressed copies attached later; the least
 * recently used goes first. A body above an eighth of the budget is served but not kept.
 * Beside them, the summaries the pages are rendered from, by their version (renderedKeys.ts), weighed
 * by payload characters in an eighth of the budget more (a version too long for it is not kept).
 * Held summaries cost collections (a big one made the next large render ~50 ms dearer); kept
 * anyway, since re-summarising for each rendering of a version cost more (docs/limits.md).
 * What makes the bodies shares one turn budget (`stage`), and the reads of old versions they are
 * made from are bounded together (`oldVersions`): the API and the pages, given this one cache,
 * share both.
 */
export function createRenderedCache(budgetBytes: number, { oldVersionLimits = OLD_VERSION_LIMITS }: { oldVersionLimits?: OldVersionLimits } = {}) {
  const lru = createLru<RenderedBody>(budgetBytes, weightOf, { maxEntryWeight: Math.floor(budgetBytes / 8) });
  const summaries = createLru<KeptSummary>(Math.floor(budgetBytes / 8), (kept) => kept.chars);
  const lookups = { hits: 0, misses: 0 };
  /** Bodies being made, by key: at most one per key at a time, so bounded by the requests in flight. */
  const making = new Map<string, Promise<RenderedBody>>();
  const stage = turnBudget(STAGE_BUDGET_MS);
  const oldVersions = createOldVersions(stage, oldVersionLimits);
  return {
    get(key: string): RenderedBody | undefined {
      const body = lru.get(key);
      if (body === undefined) lookups.misses += 1;
      else lookups.hits += 1;
      return body;
    },
    /** Lookups since start that found a body (hits) or not (misses), for the metrics. */
    lookups: () => ({ ...lookups }),
    making,
    /** Keeps `body` under `key`; false when it is too large to keep (it is still served). */
    set(key: string, body: RenderedBody): boolean {
      const kept = lru.set(key, body);
      if (kept) body.grew = () => lru.reweigh(key);
      return kept;
    },
    /** Lets go of everything kept of a match (its keys name it: renderedKeys.ts), after its erasure. */
    forgetMatch(id: string) {
      const ofMatch = (key: string) => matchOfKey(key) === id;
      lru.deleteWhere(ofMatch);
      summaries.deleteWhere(ofMatch);
      oldVersions.forgetMatch(id);
    },
    summaries,
    /** Reads, summaries and renders share the event loop's turns (one costly stage a turn). */
    stage,
    oldVersions,
    /** Bytes kept, copies included. */
    bytes: lru.weight,
    entries: lru.size,
  };
}

export type RenderedCache = ReturnType<typeof createRenderedCache>;

/**
 * The body kept under `key`, or the one `make` gives, kept when it fits; requests that ask while
 * it is being made wait for it (the viewers of a live match all ask for its new revision's part
 * at once: one render, not one each). The access line says which (`bodyCache`: hit, joined,
 * stored, not kept).
 */
export async function cachedBody(
  request: Pick<FastifyRequest, 'accessLogNotes'>,
  cache: RenderedCache,
  key: string,
  make: () => Promise<RenderedBody> | RenderedBody,
): Promise<RenderedBody> {
  const hit = cache.get(key);
  if (hit !== undefined) {
    noteInAccessLog(request, { bodyCache: 'hit' });
    return hit;
  }
  const pending = cache.making.get(key);
  if (pending !== undefined) {
    noteInAccessLog(request, { bodyCache: 'joined' });
    return pending;
  }
  const made = (async () => make())();
  cache.making.set(key, made);
  try {
    const body = await made;
    noteInAccessLog(request, { bodyCache: cache.set(key, body) ? 'stored' : 'not kept' });
    return body;
  } finally {
    cache.making.delete(key);
  }
}
