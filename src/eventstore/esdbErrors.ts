import { MaxAppendSizeExceededError, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { toNumber } from './esdbRecords.js';
import { AppendTooLargeError, type ExpectedRevision, WrongExpectedRevisionError } from './eventStore.js';

/** The port's error for a failed append: callers never see the client's classes. */
export function appendError(error: unknown, append: { streamId: string; expectedRevision: ExpectedRevision; bytes: number }): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion === 'no_stream' ? 'no_stream' : toNumber(error.actualVersion, 'revision');
    return new WrongExpectedRevisionError(append.streamId, append.expectedRevision, actual);
  }
  if (error instanceof MaxAppendSizeExceededError) return new AppendTooLargeError(append.streamId, append.bytes, error.maxAppendSize);
  return error;
}

/** Reading a stream that does not exist is an empty stream in the port, not an error. */
export const isStreamNotFound = (error: unknown) => error instanceof StreamNotFoundError;
