import { type Credentials, FORWARDS, NotLeaderError } from '@eventstore/db-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { type EsdbClient, readWithin } from './esdbClient.js';
import { appendError, isWorthRetrying } from './esdbErrors.js';
import { type EsdbProposal, NO_POSITION, toEventData, toExpected, toNumber, toStoredEvent } from './esdbRecords.js';
import { AppendOutcomeUnknownError, AppendTooLargeError, type AppendResult, type ExpectedRevision, type Position } from './eventStore.js';

export interface EsdbAppendCalls {
  /** Per-call credentials: they keep client 6.2.1 on its unary Append (see ./esdbConnection.ts). */
  credentials: Credentials;
  /** Each attempt's deadline, and the read-back's. */
  deadlineMs: number;
  /** Attempts in all for an append without an answer; waits `retryDelayMs`, doubling, between them. */
  attempts: number;
  retryDelayMs: number;
}

/**
 * One append to EventStoreDB, its events as they are stored; the caller has checked them
 * (./eventChecks.ts).
 * Appends above `maxAppendBytes` are refused before anything is sent, with AppendTooLargeError.
 *
 * An attempt without an answer (deadline passed, connection lost, follower) is made again with
 * the same event ids and expected revision, up to `attempts` in all: the server answers a
 * stored one with its first result, so the events are written at most once. After the last,
 * AppendOutcomeUnknownError: they may be stored. Not recognised as a repeat by the server: the
 * same ids with expected revision "any" once other events followed them.
 */
export async function appendToEsdb(
  client: EsdbClient,
  append: { streamId: string; events: readonly EsdbProposal[]; expectedRevision: ExpectedRevision; maxAppendBytes: number },
  calls: EsdbAppendCalls,
): Promise<AppendResult> {
  const { streamId, expectedRevision, maxAppendBytes } = append;
  const { proposed, bytes } = toEventData(append.events);
  if (bytes > maxAppendBytes) throw new AppendTooLargeError(streamId, bytes, maxAppendBytes);
  const options = { expectedRevision: toExpected(expectedRevision), credentials: calls.credentials, deadline: calls.deadlineMs };
  for (let attempt = 1; ; attempt += 1) {
    let result;
    try {
      result = await client.appendToStream(streamId, proposed, options);
    } catch (error) {
      if (!isWorthRetrying(error)) throw appendError(error, { streamId, expectedRevision, bytes });
      if (attempt >= calls.attempts) throw new AppendOutcomeUnknownError(streamId, attempt, error);
      await sleep(calls.retryDelayMs * 2 ** (attempt - 1));
      continue;
    }
    const revision = toNumber(result.nextExpectedRevision, 'revision');
    // The last event's commit position; a repeat may come without one (absent, or 2^64 − 1).
    const commit = result.position?.commit ?? NO_POSITION;
    const position = commit === NO_POSITION ? await positionOfRevision(client, streamId, revision, calls.deadlineMs) : toNumber(commit, 'position');
    return { nextExpectedRevision: revision, position };
  }
}

/**
 * Where the last event of a stream is in the log; for appends answered without a position.
 * A follower's refusal turns the client to the leader: read once more there.
 */
async function positionOfRevision(client: EsdbClient, streamId: string, revision: number, deadlineMs: number): Promise<Position> {
  try {
    return await positionOfRevisionOnce(client, streamId, revision, deadlineMs);
  } catch (error) {
    if (!(error instanceof NotLeaderError)) throw error;
    return positionOfRevisionOnce(client, streamId, revision, deadlineMs);
  }
}

async function positionOfRevisionOnce(client: EsdbClient, streamId: string, revision: number, deadlineMs: number): Promise<Position> {
  // From the leader: a follower may not have the append yet (stream reads are leader reads, ./esdbReads.ts).
  const read = client.readStream(streamId, { fromRevision: BigInt(revision), direction: FORWARDS, maxCount: 1, requiresLeader: true });
  for await (const resolved of readWithin(read, deadlineMs, `read of ${streamId}@${revision}`)) {
    if (resolved.event) return toStoredEvent(resolved.event).event.position;
  }
  throw new Error(`EventStoreDB did not return ${streamId}@${revision} just appended`);
}
