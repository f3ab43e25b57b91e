import type { AppendExpectedRevision, BinaryEventData, Position as EsdbPosition, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { readEventMetadata } from './eventChecks.js';
import { type EventMetadata, type ExpectedRevision, type Position, type RecordedEvent, type Revision, UnreadableEventError } from './eventStore.js';
import { SEALED_WITH } from './payloadCipher.js';
import { storedEncoding, type StoredEncoding, UndecodableVersionError } from './storedVersions.js';

/** How the port's events and positions are written to and read from EventStoreDB. */

const encoder = new TextEncoder();

/** Revisions and positions are 64-bit on the server; the port uses JS numbers (see eventStore.ts). */
export function toNumber(value: bigint, what: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`EventStoreDB ${what} ${value} does not fit a JS number`);
  return number;
}

/**
 * Every event appended with one request is its own committed record (prepare flagged
 * IsCommitted, EventStoreDB 20+), so its commit position equals its prepare position and is
 * unique: one number is enough to resume after it.
 */
export const esdbPosition = (position: Position): EsdbPosition => ({ commit: BigInt(position), prepare: BigInt(position) });

export function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return 'no_stream';
  if (expected === 'any') return 'any';
  return BigInt(expected);
}

/**
 * How the adapter stored an event's data, written in its metadata under `stored` (a field the
 * port's readEventMetadata leaves out, and eventChecks refuses from callers): the version
 * encoding (./storedVersions.ts), and whether the data is sealed with the stream's key
 * (./payloadCipher.ts). No `stored`: the data as given, as every event before encodings.
 */
export interface EsdbStorage {
  encoding: StoredEncoding | null;
  baseRevision: Revision | null;
  sealed: boolean;
  /** Stored in the clear on purpose: the stream's key was erased before it was appended (written by releases before issue 58). */
  afterErasure: boolean;
  /** Stored in the clear on purpose in a sealed stream, readable after its key is erased (./esdbSealing.ts). */
  outlivesKey: boolean;
}

export const AS_GIVEN: EsdbStorage = { encoding: null, baseRevision: null, sealed: false, afterErasure: false, outlivesKey: false };
const AFTER_ERASURE = 'key erased';
const OUTLIVES_KEY = 'outlives key';

function storedField(storage: EsdbStorage): Record<string, string | number> | null {
  const field: Record<string, string | number> = {};
  if (storage.encoding !== null) field.encoding = storage.encoding;
  if (storage.baseRevision !== null) field.base = storage.baseRevision;
  if (storage.sealed) field.cipher = SEALED_WITH;
  if (storage.afterErasure) field.clear = AFTER_ERASURE;
  else if (storage.outlivesKey) field.clear = OUTLIVES_KEY;
  return Object.keys(field).length === 0 ? null : field;
}

/** The storage an event's metadata names; UndecodableVersionError for one this code does not know. */
function storageOf(metadata: unknown, streamId: string, revision: Revision): EsdbStorage {
  const stored = typeof metadata === 'object' && metadata !== null && 'stored' in metadata ? metadata.stored : undefined;
  if (stored === undefined) return AS_GIVEN;
  const problem = (what: string) => new UndecodableVersionError(streamId, revision, `its metadata's stored ${what}`);
  if (typeof stored !== 'object' || stored === null) throw problem('is not an object');
  const field = (name: string): unknown => (name in stored ? (stored as Record<string, unknown>)[name] : undefined);
  const base = field('base');
  const cipher = field('cipher');
  const clear = field('clear');
  if (base !== undefined && !(typeof base === 'number' && Number.isSafeInteger(base) && base >= 0)) throw problem('base is not a revision');
  if (cipher !== undefined && cipher !== SEALED_WITH) throw problem(`cipher ${JSON.stringify(cipher)} is not known`);
  if (clear !== undefined && clear !== AFTER_ERASURE && clear !== OUTLIVES_KEY) throw problem(`clear ${JSON.stringify(clear)} is not known`);
  return {
    encoding: storedEncoding(field('encoding'), streamId, revision),
    baseRevision: base ?? null,
    sealed: cipher !== undefined,
    afterErasure: clear === AFTER_ERASURE,
    outlivesKey: clear === OUTLIVES_KEY,
  };
}

/** An event to append: its data as stored (encoded, perhaps sealed) and how. */
export interface EsdbProposal {
  id: string;
  type: string;
  bytes: Buffer;
  metadata: EventMetadata;
  storage: EsdbStorage;
}

/**
 * Events are stored as bytes (content type application/octet-stream) holding the JSON text or
 * its stored form: the client re-serialises data marked JSON on the way in and parses it on the
 * way out, which would not keep the text byte for byte.
 */
export function toEventData(proposals: readonly EsdbProposal[]): { proposed: BinaryEventData[]; bytes: number } {
  const encoded = proposals.map((proposal) => {
    const stored = storedField(proposal.storage);
    const metadata = encoder.encode(JSON.stringify(stored === null ? proposal.metadata : { ...proposal.metadata, stored }));
    return { proposal, metadata };
  });
  // The server's own measure (Event.SizeOnDisk): data + metadata + 2 bytes per type character.
  const bytes = encoded.reduce((sum, { proposal, metadata }) => sum + proposal.bytes.byteLength + metadata.byteLength + proposal.type.length * 2, 0);
  const proposed = encoded.map(
    ({ proposal, metadata }): BinaryEventData => ({
      id: proposal.id,
      contentType: 'application/octet-stream',
      type: proposal.type,
      data: proposal.bytes,
      metadata,
    }),
  );
  return { proposed, bytes };
}

/** Events marked JSON by other writers are re-serialised. */
function dataBytes(event: EsdbRecordedEvent): Buffer {
  if (event.data instanceof Uint8Array) return Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength);
  return Buffer.from(JSON.stringify(event.data));
}

/**
 * What a server gives for "no position": 2^64 − 1, the unsigned -1. Servers before 22.6 give it
 * for events read from a stream; answers to appends may carry it for a repeat.
 */
export const NO_POSITION = 2n ** 64n - 1n;

/** An event as EventStoreDB stores it: the port's event but for its data, kept as stored. */
export interface EsdbStoredEvent {
  event: Omit<RecordedEvent, 'data'>;
  bytes: Buffer;
  storage: EsdbStorage;
}

/**
 * The event as stored. The client always fills `position` (with NO_POSITION when the server
 * had none); an event that cannot be read is an UnreadableEventError naming its stream and
 * position, never a plain error a subscription would take for a dropped connection.
 */
export function toStoredEvent(event: EsdbRecordedEvent): EsdbStoredEvent {
  const commit = event.position?.commit ?? NO_POSITION;
  if (commit === NO_POSITION) throw unreadableEvent(event.streamId, 'none', 'the server gave no position (EventStoreDB 22.6 or later gives it)');
  try {
    const revision = toNumber(event.revision, 'revision');
    return {
      event: {
        id: event.id,
        streamId: event.streamId,
        revision,
        position: toNumber(commit, 'position'),
        type: event.type,
        metadata: readEventMetadata(event.metadata, event.id),
        recordedAt: event.created.toISOString(),
      },
      bytes: dataBytes(event),
      storage: storageOf(event.metadata, event.streamId, revision),
    };
  } catch (error) {
    throw unreadableEvent(event.streamId, String(commit), error instanceof Error ? error.message : String(error));
  }
}

const unreadableEvent = (streamId: string, position: string, problem: string) => new UnreadableEventError(streamId, position, problem);
