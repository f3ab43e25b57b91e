import type { JsonText } from './jsonText.js';
import { type MatchSummary, summarizeMatch } from './matchPayload.js';
import { createLru } from '../platform/lru.js';

export interface DecodedPayload {
  body: unknown;
  /** The payload's summary, made on first ask. */
  summary(): MatchSummary;
}

/**
 * Payloads of the latest match events, by event id, so a process parses each one once per
 * batch: one is made by the engine (src/runtime/engine.ts) and handed to its write path, which
 * remembers what the request parsed, and to its projection runner, which reads and then forgets.
 */
export interface DecodedPayloads {
  /**
   * A match event's payload, parsed (and summarised) once for every projection that reads it.
   * Events never change, so an entry kept by id is always right; callers must not mutate it.
   */
  decoded(eventId: string, payload: JsonText): DecodedPayload;
  /** A match event's payload as parsed already (by the request or a projection), if it still is. */
  parsed(eventId: string): DecodedPayload | undefined;
  /**
   * Hands the projections a payload the writer has parsed already (the request's body), before
   * its event is appended. `body` must be exactly what JSON.parse of the event's payload text
   * gives: the body parser refuses poisoning keys rather than dropping them
   * (src/http/api/jsonShape.ts), and body validation neither coerces nor fills defaults
   * (test/http/parsedBody.property.test.ts). `summary`, when given, must be summarizeMatch(body).
   */
  remember(eventId: string, body: unknown, summary?: MatchSummary): void;
  /** Lets go of these events' payloads: the projections have applied them (an 85 KB payload parses to ~110 KB of objects). */
  forget(eventIds: Iterable<string>): void;
}

/** The payloads of the latest `maxEntries` match events a process decoded or was handed. */
export function createDecodedPayloads(maxEntries = 16): DecodedPayloads {
  const recent = createLru<DecodedPayload>(maxEntries);

  function remember(eventId: string, body: unknown, made: MatchSummary | null = null): DecodedPayload {
    let summary = made;
    const decoded = { body, summary: () => (summary ??= summarizeMatch(body)) };
    recent.set(eventId, decoded);
    return decoded;
  }

  return {
    decoded: (eventId, payload) => recent.get(eventId) ?? remember(eventId, JSON.parse(payload)),
    parsed: (eventId) => recent.get(eventId),
    remember(eventId, body, summary) {
      remember(eventId, body, summary);
    },
    forget(eventIds) {
      for (const eventId of eventIds) recent.delete(eventId);
    },
  };
}
