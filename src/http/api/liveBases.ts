import type { FastifyRequest } from 'fastify';
import type { ReparseBasis } from '../../domain/jsonReparse.js';
import { isRecord } from '../../platform/isRecord.js';

/**
 * The last accepted upload of each live match, its text and parsed value, for the next upload to
 * be parsed against (src/domain/jsonReparse.ts, issue 60). Weighed at three bytes a character
 * (the text and its value measured 2.3 together, the index beside them), within LIVE_PARSE_BYTES
 * (32 MiB by default: ~300 matches of 35 KB). A match is re-uploaded every few seconds while
 * it is played; when the budget is full, a basis unused for IDLE_MS makes room, and otherwise
 * the newcomer is not kept: with more live matches than the budget holds,
 * letting the least recently used go would let every one go before its next upload (they come
 * round in turn), so the ones kept stay kept and the others take the full parse.
 */
const IDLE_MS = 60_000;
const BYTES_PER_CHAR = 3;

interface Kept {
  basis: ReparseBasis;
  usedAt: number;
}

export function createLiveBases(maxBytes: number, now: () => number = Date.now) {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const weigh = (basis: ReparseBasis) => basis.text.length * BYTES_PER_CHAR;
  const drop = (key: string) => {
    const entry = kept.get(key);
    if (entry === undefined) return;
    bytes -= weigh(entry.basis);
    kept.delete(key);
  };
  return {
    get: (key: string): ReparseBasis | undefined => kept.get(key)?.basis,
    /** An upload of match `key` was accepted: its text and value are the basis for the next one. */
    set(key: string, basis: ReparseBasis) {
      drop(key);
      const weight = weigh(basis);
      if (weight > maxBytes / 4) return;
      const at = now();
      for (const [oldest, entry] of kept) {
        if (bytes + weight <= maxBytes || at - entry.usedAt < IDLE_MS) break;
        drop(oldest);
      }
      if (bytes + weight > maxBytes) return;
      kept.set(key, { basis, usedAt: at });
      bytes += weight;
    },
    /** Lets go of every basis: a match was erased (they are let go of all at once, as the repeated bodies are). */
    clear() {
      kept.clear();
      bytes = 0;
    },
    get heldBytes() {
      return bytes;
    },
  };
}

/** A POST's match id when the body names it first (as scoring apps send it); read from the first characters only. */
const LEADING_ID = /^\{\s*"id"\s*:\s*"([^"\\]{1,200})"/;

/**
 * The match an upload is for, when it can be told before the body is parsed: a PUT's path, or a
 * POST whose body starts with its id. Only a hint: any basis gives the exact value (or none).
 */
export function uploadKey(request: FastifyRequest, text: string): string | null {
  if (request.method === 'PUT' && request.routeOptions.url === '/api/matches/:id') {
    const { params } = request;
    return isRecord(params) && typeof params.id === 'string' ? params.id : null;
  }
  if (request.method === 'POST' && request.routeOptions.url === '/api/matches') return LEADING_ID.exec(text.slice(0, 256))?.[1] ?? null;
  return null;
}
