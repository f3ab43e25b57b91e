import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLru } from '../../platform/lru.js';

/** A rendered response kept as bytes, with compressed copies made the first time they are asked for. */
export interface RenderedBody {
  bytes: Buffer;
  etag: string;
  type: string;
  gzip?: Buffer;
  br?: Buffer;
}

export function renderedBody(text: string, type = 'text/html; charset=utf-8'): RenderedBody {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
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

/**
 * Sends a rendered body: 304 when the client has it, else the bytes in the best encoding the
 * client accepts. Compressed copies are made once per body, so a cached page costs no
 * compression per request (and @fastify/compress leaves an encoded reply alone).
 */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, body: RenderedBody, compress: boolean) {
  reply.header('etag', body.etag).header('vary', 'accept-encoding').type(body.type);
  if (notModified(request, body.etag)) return reply.code(304).send();
  const accepted = compress && body.bytes.length > 1024 ? encodings.negotiate(request.headers['accept-encoding'] ?? '') : null;
  if (accepted === 'br') {
    body.br ??= brotliCompressSync(body.bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.bytes.length } });
    return reply.header('content-encoding', 'br').send(body.br);
  }
  if (accepted === 'gzip') {
    body.gzip ??= gzipSync(body.bytes, { level: 6 });
    return reply.header('content-encoding', 'gzip').send(body.gzip);
  }
  return reply.send(body.bytes);
}

/** Rendered bodies by key (match, revision, view), least recently used forgotten first. */
export const createRenderedCache = (maxEntries: number) => createLru<RenderedBody>(maxEntries);
