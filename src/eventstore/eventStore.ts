import type { LogFacts } from '../domain/logFacts.js';
/**
 * The event store port: streams of events with revisions, one global order over all of them.
 * Adapters: SQLite (embedded default, ./sqliteEventStore.ts) and EventStoreDB (./esdbEventStore.ts).
 * Every adapter is held to the same behaviour by test/contract/eventStoreContract.ts.
 */

import type { Position } from '../domain/logPosition.js';

export type { Position };

/** Revision of an event within its stream, 0 for the first. */
export type Revision = number;

/** What the writer believes the stream looks like; the append fails if it is wrong. */
export type ExpectedRevision = 'no_stream' | 'any' | Revision;

export interface EventMetadata {
  /** The request that caused the event, for tracing. */
  requestId?: string;
  /** Where the request came from, as a class only (never an address): loopback, private, public. */
  clientAddressClass?: string;
  /** Version of the metadata shape. */
  schemaVersion: number;
  /**
   * For an event carrying a payload (a match version): lower-case hex SHA-256 of the version's
   * random salt followed by the payload's exact bytes. Kept when the payload is erased, so the
   * transparency log (docs/auditing.md) rebuilds to the same root after an erasure.
   */
  payloadSha256?: string;
  /**
   * Who could write, committed by the transparency log's entry of this event (src/domain/logEntry.ts):
   * for a version, the match's protection, how it came and the token's part; for an erasure, who
   * asked. Absent on events written before entries committed them (their entries stay as they were).
   */
  logFacts?: LogFacts;
  /** A random salt (base64) the entry's dataSha256 is taken with, so a guessed reason cannot be confirmed. */
  dataSalt?: string;
  /** false: the event stays out of the public transparency log (a club's private dashboard actions). */
  publicLog?: boolean;
}

export interface NewEvent {
  /**
   * Unique lower-case UUID. Appending the same events again with the same expected revision
   * returns the first append's result and writes nothing (a retry), in every store. SQLite also
   * recognises them at any other expected revision; EventStoreDB does not (see appendToStream).
   */
  id: string;
  type: string;
  /** JSON text, stored and returned byte for byte. */
  data: string;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  revision: Revision;
  position: Position;
  /** ISO-8601 time the store recorded the event. */
  recordedAt: string;
  /**
   * The event's data was erased (EventStore.erasePayloads): `data` is ERASED_DATA, while its
   * type, revision, position, metadata and recordedAt are as appended. Absent otherwise.
   */
  erased?: true;
}

/** The data a read gives for an erased event. */
export const ERASED_DATA = '{}';

export interface AppendResult {
  /** Revision of the last event appended: pass it as the next expected revision. */
  nextExpectedRevision: Revision;
  /** Global position of the last event appended. */
  position: Position;
}

export interface ReadStreamOptions {
  fromRevision?: Revision;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events after this position (exclusive); null reads from the start. */
  after: Position | null;
  maxCount: number;
}

export type SubscriptionItem =
  | { kind: 'events'; events: RecordedEvent[] }
  /** Everything up to `position` has been delivered; more will come as it is appended. */
  | { kind: 'caughtUp'; position: Position | null };

export interface AllSubscription extends AsyncIterable<SubscriptionItem> {
  close(): Promise<void>;
}

export interface EventStore {
  /** What the distance between two positions counts: events (SQLite) or bytes of log (EventStoreDB). */
  readonly positionUnit: 'event' | 'byte';
  /**
   * Appends atomically: all events or none. Resolves only once the events are durable
   * (fsync'd or quorum-acknowledged). Rejects with WrongExpectedRevisionError when the stream
   * is not at `expectedRevision`, with AppendTooLargeError (nothing written) when the
   * events exceed what the store takes in one append, and with InvalidAppendError (nothing
   * written) when they break the envelope every store checks (./eventChecks.ts).
   * Repeated ids: the same events appended again with the same expected revision return the
   * first result (even after the stream moved on). With another expected revision SQLite still
   * returns the first result; EventStoreDB answers WrongExpectedRevisionError if the stream is
   * not there, and would write them again if it is: retry with the revision first used.
   * With AppendOutcomeUnknownError the events may or may not be stored.
   */
  appendToStream(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** The stream's events in order; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of all streams in global order. Rejects with UnreadableEventError for an event the store cannot give as a RecordedEvent. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the newest event, null for an empty store. */
  headPosition(): Promise<Position | null>;
  /**
   * Delivers every event after `after` in global order, batch by batch, then keeps delivering
   * new ones. Ordered, at least once per subscription. Says caughtUp once each time it reaches
   * the head, with the last position delivered (`after` when none); ends at once when closed.
   * An event it cannot read ends it with UnreadableEventError, once the events before it are
   * delivered: never skipped, never retried silently.
   */
  subscribeToAll(options: { after: Position | null; batchSize?: number }): AllSubscription;
  /**
   * Erases, for good, the data of the stream's events at `revisions` (a match's versions: their
   * payloads and salts), and every copy the store keeps of it: SQLite overwrites the rows (and
   * any delta chain built on them; versions of a stream are deltas against each other only),
   * with secure_delete and a WAL checkpoint, so the bytes are in none of its files; EventStoreDB
   * deletes the stream's payload key. Type, revision, position, metadata (payloadSha256 with it)
   * and recordedAt stay; reads give the events with `erased: true` and ERASED_DATA. Events not
   * named stay readable. Idempotent; resolves once durable. Revisions the stream lacks are ignored.
   */
  erasePayloads(streamId: string, revisions: readonly Revision[]): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: Revision | 'no_stream',
  ) {
    super(`stream ${streamId} is at ${String(actual)}, expected ${String(expected)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** The events are larger than the store accepts in one append (or in one event); nothing was written. */
export class AppendTooLargeError extends Error {
  constructor(
    readonly streamId: string,
    readonly bytes: number,
    readonly maxBytes: number,
    readonly per: 'append' | 'event' = 'append',
  ) {
    super(`append to ${streamId} is ${bytes} bytes; the event store takes at most ${maxBytes} per ${per}`);
    this.name = 'AppendTooLargeError';
  }
}

/** The append breaks the envelope every store checks (src/eventstore/eventChecks.ts); nothing was written. */
export class InvalidAppendError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventId: string | null,
    readonly problem: string,
  ) {
    super(`append to ${streamId} refused: ${eventId === null ? '' : `event ${eventId} `}${problem}`);
    this.name = 'InvalidAppendError';
  }
}

/**
 * An event in the log that the store cannot give as a RecordedEvent (metadata without its
 * schemaVersion, a position beyond a JS number, no position at all); nothing after it is read.
 */
export class UnreadableEventError extends Error {
  constructor(
    readonly streamId: string,
    /** Its position as the store gave it, in decimal: it may not fit a Position. */
    readonly position: string,
    readonly problem: string,
  ) {
    super(`event at position ${position} of stream ${streamId} cannot be read: ${problem}`);
    this.name = 'UnreadableEventError';
  }
}

/**
 * The store did not answer the append, even when asked again with the same event ids and
 * expected revision (which it would have recognised as a repeat): the events may be stored.
 */
export class AppendOutcomeUnknownError extends Error {
  constructor(
    readonly streamId: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`append to ${streamId} has no answer after ${attempts} attempts (it may be stored): ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'AppendOutcomeUnknownError';
  }
}

/**
 * The stream's data was erased for good (EventStoreDB: its key is gone): nothing may be appended
 * to it any more but the record of its erasure. Nothing was written.
 */
export class StreamErasedError extends Error {
  constructor(readonly streamId: string) {
    super(`stream ${streamId} was erased: nothing more may be appended to it`);
    this.name = 'StreamErasedError';
  }
}
