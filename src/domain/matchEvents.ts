import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type JsonText, splitPayload, withPayload } from './jsonText.js';

const Protection = Type.Union([Type.Literal('protected'), Type.Literal('unprotected')]);
const WriteVia = Type.Union([Type.Literal('POST'), Type.Literal('PUT')]);
export type Protection = Static<typeof Protection>;
export type WriteVia = Static<typeof WriteVia>;

export const MATCH_EVENT_SCHEMA_VERSION = 1;

/** Stored envelopes, one schema per event type and version. The payload travels beside them. */
const envelopes = {
  MatchCreated: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    protection: Protection,
    /** Keyed hash of the write token (src/domain/writeToken.ts); only when protected. */
    writeTokenHash: Type.Optional(Type.String()),
    createdVia: WriteVia,
  }),
  MatchReplaced: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    replacedVia: WriteVia,
  }),
};

type Envelope<K extends keyof typeof envelopes> = Omit<Static<(typeof envelopes)[K]>, 'schemaVersion'>;

/** The match was stored for the first time; its protection is fixed here for good. */
export interface MatchCreated {
  type: 'MatchCreated';
  data: Envelope<'MatchCreated'> & { payload: JsonText };
}

/** A later upload replaced the stored payload as a whole. */
export interface MatchReplaced {
  type: 'MatchReplaced';
  data: Envelope<'MatchReplaced'> & { payload: JsonText };
}

export type MatchEvent = MatchCreated | MatchReplaced;
export type MatchEventType = MatchEvent['type'];

export const isMatchEventType = (type: string): type is MatchEventType => Object.hasOwn(envelopes, type);

/** Event data as stored: a versioned envelope with the payload text spliced in as sent. */
export function encodeMatchEvent(event: MatchEvent): string {
  const { payload, ...rest } = event.data;
  return withPayload({ schemaVersion: MATCH_EVENT_SCHEMA_VERSION, ...rest }, payload);
}

/**
 * Reads stored event data back; null for event types that are not match content.
 * Every schema version ever written must stay readable: when a shape changes, add an
 * upcaster here rather than rewriting the log.
 */
export function decodeMatchEvent(type: string, data: string): MatchEvent | null {
  if (!isMatchEventType(type)) return null;
  const { envelope, payload } = splitPayload(data);
  if (type === 'MatchCreated') {
    const { schemaVersion: _v, ...fields } = checked(type, envelopes.MatchCreated, envelope);
    return { type, data: { ...fields, payload } };
  }
  const { schemaVersion: _v, ...fields } = checked(type, envelopes.MatchReplaced, envelope);
  return { type, data: { ...fields, payload } };
}

function checked<T extends TSchema>(type: string, schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  throw new Error(`unreadable ${type} event data: ${first?.path ?? ''} ${first?.message ?? ''}`.trim());
}
