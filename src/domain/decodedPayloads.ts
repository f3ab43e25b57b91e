import type { JsonText } from './jsonText.js';
import { type MatchSummary, summarizeMatch } from './matchPayload.js';
import { createLru } from '../platform/lru.js';

export interface DecodedPayload {
  body: unknown;
  /** The payload's summary, made on first ask. */
  summary(): MatchSummary;
}

/** Payloads of the latest match events, by event id: this process parses each one once per batch. */
const recent = createLru<DecodedPayload>(16);

function remember(eventId: string, body: unknown, made: MatchSummary | null = null): DecodedPayload {
  let summary = made;
  const decoded = { body, summary: () => (summary ??= summarizeMatch(body)) };
  recent.set(eventId, decoded);
  return decoded;
}

/**
 * A match event's payload, parsed (and summarised) once for every projection that reads it.
 * Events never change, so an entry kept by id is always right; callers must not mutate it.
 */
export function decodedPayload(eventId: string, payload: JsonText): DecodedPayload {
  return recent.get(eventId) ?? remember(eventId, JSON.parse(payload));
}

/** A match event's payload as parsed already in this process (by the request or a projection), if it still is. */
export const parsedPayload = (eventId: string): DecodedPayload | undefined => recent.get(eventId);

/**
 * Hands the projections of this process a payload the writer has parsed already (the request's
 * body), before its event is appended. `body` must be exactly what JSON.parse of the event's
 * payload text gives: the body parser refuses poisoning keys rather than dropping them
 * (src/http/api/jsonShape.ts), and body validation neither coerces nor fills defaults
 * (test/http/parsedBody.property.test.ts). `summary`, when given, must be summarizeMatch(body).
 */
export function rememberDecodedPayload(eventId: string, body: unknown, summary?: MatchSummary): void {
  remember(eventId, body, summary);
}

/** Lets go of these events' payloads: the projections have applied them (an 85 KB payload parses to ~110 KB of objects). */
export function forgetDecodedPayloads(eventIds: Iterable<string>): void {
  for (const eventId of eventIds) recent.delete(eventId);
}
