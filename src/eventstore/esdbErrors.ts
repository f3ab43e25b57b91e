import {
  CancelledError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { toNumber } from './esdbRecords.js';
import { AppendTooLargeError, type ExpectedRevision, WrongExpectedRevisionError } from './eventStore.js';

/**
 * KurrentDB 24+'s answer to one event above its MaxAppendEventSize. Client 6.2.1 does not know
 * it and gives an UnknownError holding the server's trailers.
 */
const EVENT_TOO_LARGE = 'maximum-append-event-size-exceeded';

function eventSizeLimit(error: unknown): number | null {
  if (!(error instanceof UnknownError) || error._raw === undefined) return null;
  const trailers = error._raw.metadata.getMap();
  if (String(trailers.exception) !== EVENT_TOO_LARGE) return null;
  const limit = Number(String(trailers['maximum-append-event-size']));
  return Number.isSafeInteger(limit) ? limit : 0;
}

/** The port's error for a failed append: callers never see the client's classes. */
export function appendError(error: unknown, append: { streamId: string; expectedRevision: ExpectedRevision; bytes: number }): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion === 'no_stream' ? 'no_stream' : toNumber(error.actualVersion, 'revision');
    return new WrongExpectedRevisionError(append.streamId, append.expectedRevision, actual);
  }
  if (error instanceof MaxAppendSizeExceededError) return new AppendTooLargeError(append.streamId, append.bytes, error.maxAppendSize);
  const eventLimit = eventSizeLimit(error);
  if (eventLimit !== null) return new AppendTooLargeError(append.streamId, append.bytes, eventLimit, 'event');
  return error;
}

/**
 * Failures after which the append may or may not be stored (the deadline passed, the
 * connection went, the call was cancelled or aborted, or failed with a gRPC status the client
 * does not name: all ambiguous), or was not (a follower refused it; the client turns to the
 * leader). Asked again with the same ids and expected revision, the server recognises a stored
 * one as a repeat; after the last attempt the outcome is unknown (AppendOutcomeUnknownError).
 * KurrentDB's per-event size refusal comes as an UnknownError too, but it is an answer.
 */
export const isWorthRetrying = (error: unknown) =>
  error instanceof DeadlineExceededError ||
  error instanceof UnavailableError ||
  error instanceof NotLeaderError ||
  error instanceof CancelledError ||
  error instanceof TimeoutError ||
  (error instanceof UnknownError && eventSizeLimit(error) === null);

/** Reading a stream that does not exist is an empty stream in the port, not an error. */
export const isStreamNotFound = (error: unknown) => error instanceof StreamNotFoundError;
