import { type EventStoreDBClient, FORWARDS } from '@eventstore/db-client';
import { appendError } from './esdbErrors.js';
import { toEventData, toExpected, toNumber, toRecorded } from './esdbRecords.js';
import { AppendTooLargeError, type AppendResult, type ExpectedRevision, type NewEvent, type Position } from './eventStore.js';

/**
 * One append to EventStoreDB; the caller has checked the events (./eventChecks.ts).
 * Appends above `maxAppendBytes` are refused before anything is sent, with AppendTooLargeError.
 */
export async function appendToEsdb(
  client: EventStoreDBClient,
  append: { streamId: string; events: readonly NewEvent[]; expectedRevision: ExpectedRevision; maxAppendBytes: number },
): Promise<AppendResult> {
  const { streamId, expectedRevision, maxAppendBytes } = append;
  const { proposed, bytes } = toEventData(append.events);
  if (bytes > maxAppendBytes) throw new AppendTooLargeError(streamId, bytes, maxAppendBytes);
  let result;
  try {
    result = await client.appendToStream(streamId, proposed, { expectedRevision: toExpected(expectedRevision) });
  } catch (error) {
    throw appendError(error, { streamId, expectedRevision, bytes });
  }
  const revision = toNumber(result.nextExpectedRevision, 'revision');
  // The answer's commit position is the last event's; idempotent repeats on some versions have none.
  const commit = result.position?.commit;
  const position = commit !== undefined && commit >= 0n ? toNumber(commit, 'position') : await positionOfRevision(client, streamId, revision);
  return { nextExpectedRevision: revision, position };
}

/** Where the last event of a stream is in the log; for appends answered without a position. */
async function positionOfRevision(client: EventStoreDBClient, streamId: string, revision: number): Promise<Position> {
  for await (const resolved of client.readStream(streamId, { fromRevision: BigInt(revision), direction: FORWARDS, maxCount: 1 })) {
    if (resolved.event) return toRecorded(resolved.event, resolved.commitPosition).position;
  }
  throw new Error(`EventStoreDB did not return ${streamId}@${revision} just appended`);
}
