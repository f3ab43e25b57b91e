import type { AppendExpectedRevision, BinaryEventData, Position as EsdbPosition, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { readEventMetadata } from './eventChecks.js';
import { type ExpectedRevision, type NewEvent, type Position, type RecordedEvent, UnreadableEventError } from './eventStore.js';

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
 * Events are stored as bytes (content type application/octet-stream) holding the JSON text:
 * the client re-serialises data marked JSON on the way in and parses it on the way out, which
 * would not keep the text byte for byte.
 */
export function toEventData(events: readonly NewEvent[]): { proposed: BinaryEventData[]; bytes: number } {
  const encoded = events.map((event) => ({ event, data: encoder.encode(event.data), metadata: encoder.encode(JSON.stringify(event.metadata)) }));
  // The server's own measure (Event.SizeOnDisk): data + metadata + 2 bytes per type character.
  const bytes = encoded.reduce((sum, { event, data, metadata }) => sum + data.byteLength + metadata.byteLength + event.type.length * 2, 0);
  const proposed = encoded.map(({ event, data, metadata }): BinaryEventData => ({ id: event.id, contentType: 'application/octet-stream', type: event.type, data, metadata }));
  return { proposed, bytes };
}

/** Events marked JSON by other writers are re-serialised. */
function dataText(event: EsdbRecordedEvent): string {
  if (event.data instanceof Uint8Array) return Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength).toString('utf8');
  return JSON.stringify(event.data);
}

/**
 * What a server gives for "no position": 2^64 − 1, the unsigned -1. Servers before 22.6 give it
 * for events read from a stream; answers to appends may carry it for a repeat.
 */
export const NO_POSITION = 2n ** 64n - 1n;

/**
 * The port's event. The client always fills `position` (with NO_POSITION when the server had
 * none); an event that cannot be given whole is an UnreadableEventError naming its stream and
 * position, never a plain error a subscription would take for a dropped connection.
 */
export function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  const commit = event.position?.commit ?? NO_POSITION;
  const unreadable = (problem: string) => new UnreadableEventError(event.streamId, commit === NO_POSITION ? 'none' : String(commit), problem);
  if (commit === NO_POSITION) throw unreadable('the server gave no position (EventStoreDB 22.6 or later gives it)');
  try {
    return {
      id: event.id,
      streamId: event.streamId,
      revision: toNumber(event.revision, 'revision'),
      position: toNumber(commit, 'position'),
      type: event.type,
      data: dataText(event),
      metadata: readEventMetadata(event.metadata, event.id),
      recordedAt: event.created.toISOString(),
    };
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error));
  }
}
