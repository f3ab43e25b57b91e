import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type JsonText, splitPayload, withPayload } from './jsonText.js';

const Protection = Type.Union([Type.Literal('protected'), Type.Literal('unprotected')]);
const WriteVia = Type.Union([Type.Literal('POST'), Type.Literal('PUT')]);
export type Protection = Static<typeof Protection>;
export type WriteVia = Static<typeof WriteVia>;

const MATCH_EVENT_SCHEMA_VERSION = 1;

/**
 * Unsalted SHA-256 of the payload text (src/domain/payloadDigest.ts): written by releases before
 * salts, never now (it would confirm a guessed payload once the payload is erased).
 */
const PayloadDigest = Type.Optional(Type.String());
/** The version's random salt, base64: payloadSha256 (in the event's metadata) is SHA-256(salt ‖ payload). Absent before salts. */
const PayloadSalt = Type.Optional(Type.String());

/** Stored envelopes, one schema per event type and version. The payload travels beside them. */
const envelopes = {
  MatchCreated: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    protection: Protection,
    /** Keyed hash of the write token (src/domain/writeToken.ts); only when protected. */
    writeTokenHash: Type.Optional(Type.String()),
    createdVia: WriteVia,
    payloadDigest: PayloadDigest,
    payloadSalt: PayloadSalt,
  }),
  MatchReplaced: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    replacedVia: WriteVia,
    payloadDigest: PayloadDigest,
    payloadSalt: PayloadSalt,
  }),
};

const Side = Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()]);
export type Side = Static<typeof Side>;

/**
 * Club sync outcomes, appended atomically with the MatchCreated / MatchReplaced they follow.
 * Reasons name what was wrong (src/domain/clubSync.ts); keys appear only by their id.
 */
const syncEnvelopes = {
  /** Synced with a valid app key of the club: the dashboard copies the payload. */
  ClubSyncAccepted: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    clubId: Type.String(),
    teamId: Type.String(),
    keyId: Type.String(),
    /** The club's side in the match when the payload tells it, else null (all players copied). */
    side: Side,
  }),
  /** No valid app key, processed anyway (CLUB_SYNC_ENFORCEMENT=log): copied and flagged. */
  ClubSyncUnauthenticated: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    clubId: Type.String(),
    teamId: Type.String(),
    reason: Type.String(),
    keyId: Type.Union([Type.String(), Type.Null()]),
    side: Side,
  }),
  /** Not copied: no valid key under CLUB_SYNC_ENFORCEMENT=enforce, or no such club or team. */
  ClubSyncSkipped: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    clubId: Type.String(),
    teamId: Type.String(),
    reason: Type.String(),
    keyId: Type.Union([Type.String(), Type.Null()]),
  }),
};

/** The match was erased (docs/auditing.md): its versions' payloads and salts are gone from the log and every read model. */
const MatchErasedEnvelope = Type.Object({
  schemaVersion: Type.Literal(1),
  matchId: Type.String(),
  /** Why, as the operator or owner gave it; kept in the log, never shown publicly. */
  reason: Type.String(),
  /** Stream revisions of the versions erased. */
  versions: Type.Array(Type.Integer()),
  /** The club sync outcomes of those versions, so the club's read models drop what they copied. */
  syncs: Type.Array(Type.Object({ clubId: Type.String(), revision: Type.Integer() })),
  /** Who asked the operator's erasure from the club dashboard: the club and its admin; absent for matchlog erase and the API. */
  askedBy: Type.Optional(Type.Object({ clubId: Type.String(), adminEmail: Type.String() })),
});

/** The match's versions were erased for good; the match id stays taken, and answers 410. */
export interface MatchErased {
  type: 'MatchErased';
  data: Omit<Static<typeof MatchErasedEnvelope>, 'schemaVersion'>;
}

function encodeMatchErased(event: MatchErased): string {
  return JSON.stringify({ schemaVersion: MATCH_EVENT_SCHEMA_VERSION, ...event.data });
}

/** Reads a stored erasure back; null for other event types. */
export function decodeMatchErased(type: string, data: string): MatchErased | null {
  if (type !== 'MatchErased') return null;
  const { schemaVersion: _v, ...fields } = checked(type, MatchErasedEnvelope, JSON.parse(data));
  return { type, data: fields };
}

type Envelope<K extends keyof typeof envelopes> = Omit<Static<(typeof envelopes)[K]>, 'schemaVersion'>;

/**
 * Beside the envelope: the payload, and for a version just decided its salted digest (kept in the
 * event's metadata, not its data, so it outlives an erasure; not there when read back from the log).
 */
interface VersionContent {
  payload: JsonText;
  payloadSha256?: string;
}

/** The match was stored for the first time; its protection is fixed here for good. */
interface MatchCreated {
  type: 'MatchCreated';
  data: Envelope<'MatchCreated'> & VersionContent;
}

/** A later upload replaced the stored payload as a whole. */
interface MatchReplaced {
  type: 'MatchReplaced';
  data: Envelope<'MatchReplaced'> & VersionContent;
}

export type MatchEvent = MatchCreated | MatchReplaced;
export type MatchEventType = MatchEvent['type'];

type SyncEnvelopes = typeof syncEnvelopes;
export type ClubSyncEventType = keyof SyncEnvelopes;

/** What became of a club sync attempt; see the envelopes above. */
export type ClubSyncEvent = {
  [K in ClubSyncEventType]: { type: K; data: Omit<Static<SyncEnvelopes[K]>, 'schemaVersion'> };
}[ClubSyncEventType];

/** Everything a match stream holds: its content, the outcomes of its club syncs, and its erasure. */
export type MatchStreamEvent = MatchEvent | ClubSyncEvent | MatchErased;

const isClubSyncEventType = (type: string): type is ClubSyncEventType => Object.hasOwn(syncEnvelopes, type);
export const CLUB_SYNC_EVENT_TYPES = Object.keys(syncEnvelopes) as ClubSyncEventType[];

export const isMatchEventType = (type: string): type is MatchEventType => Object.hasOwn(envelopes, type);

/** Event data as stored: a versioned envelope with the payload text spliced in as sent. */
export function encodeMatchEvent(event: MatchEvent): string {
  const { payload, payloadSha256: _inMetadata, ...rest } = event.data;
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

export function encodeMatchStreamEvent(event: MatchStreamEvent): string {
  if (event.type === 'MatchCreated' || event.type === 'MatchReplaced') return encodeMatchEvent(event);
  if (event.type === 'MatchErased') return encodeMatchErased(event);
  return JSON.stringify({ schemaVersion: MATCH_EVENT_SCHEMA_VERSION, ...event.data });
}

/** Reads a stored club sync outcome back; null for other event types. */
export function decodeClubSyncEvent(type: string, data: string): ClubSyncEvent | null {
  if (!isClubSyncEventType(type)) return null;
  const schema: TObject = syncEnvelopes[type];
  const { schemaVersion: _v, ...fields } = checked(type, schema, JSON.parse(data));
  // Checked against the type's own schema just above.
  return { type, data: fields } as ClubSyncEvent;
}

export function decodeMatchStreamEvent(type: string, data: string): MatchStreamEvent | null {
  return decodeMatchEvent(type, data) ?? decodeClubSyncEvent(type, data) ?? decodeMatchErased(type, data);
}

function checked<T extends TSchema>(type: string, schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  throw new Error(`unreadable ${type} event data: ${first?.path ?? ''} ${first?.message ?? ''}`.trim());
}
