import type { JsonText } from '../src/domain/jsonText.js';
import { type MatchSummary, summarizeMatch } from '../src/domain/matchPayload.js';
import { createLru } from '../src/platform/lru.js';

export interface DecodedPayload {
  body: unknown;
  /** The payload's summary, made on first ask. */
  summary(): MatchSummary;
}

/** Payloads of the latest events projected, by event id: every projection of a batch shares one parse. */
const recent = createLru<DecodedPayload>(16);

/**
 * A match event's payload, parsed (and summarised) once for all the projections that read it.
 * Events never change, so an entry kept by id is always right; callers must not mutate it.
 */
export function decodedPayload(eventId: string, payload: JsonText): DecodedPayload {
  const known = recent.get(eventId);
  if (known !== undefined) return known;
  const body: unknown = JSON.parse(payload);
  let summary: MatchSummary | null = null;
  const decoded = { body, summary: () => (summary ??= summarizeMatch(body)) };
  recent.set(eventId, decoded);
  return decoded;
}
