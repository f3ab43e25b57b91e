import { BACKWARDS, END, FORWARDS, NotLeaderError, START } from '@eventstore/db-client';
import { type EsdbClient, readWithin } from './esdbClient.js';
import { isStreamNotFound } from './esdbErrors.js';
import { esdbPosition, toNumber, toRecorded } from './esdbRecords.js';
import type { Position, ReadAllOptions, ReadStreamOptions, RecordedEvent } from './eventStore.js';

/**
 * Reads of EventStoreDB for the port. The log may hold other software's streams: reads of the
 * whole log keep the service's only (`ours`, by stream-name prefix). Each read fails once the
 * server sends nothing for `deadlineMs`.
 *
 * A stream is read from the leader only (`requiresLeader`): a writer decides on what it
 * read, and after a failover the client may still be on a node that has not received the
 * latest appends. A follower's refusal turns the client to the leader; the read is made once
 * more there. Reads of $all (projections, replays) take any node: a lagging one only delays.
 */
export function createEsdbReads(client: EsdbClient, ours: (streamId: string) => boolean, deadlineMs: number) {
  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    try {
      return await readStreamOnce(streamId, options);
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      if (!(error instanceof NotLeaderError)) throw error;
      // The client has turned to the leader it was told of.
      return readStreamOnce(streamId, options).catch((again: unknown) => (isStreamNotFound(again) ? [] : Promise.reject(again)));
    }
  }

  async function readStreamOnce(streamId: string, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const read = client.readStream(streamId, {
      direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
      fromRevision: fromRevision === undefined ? (direction === 'forwards' ? START : END) : BigInt(fromRevision),
      requiresLeader: true,
      ...(maxCount === undefined ? {} : { maxCount }),
    });
    for await (const resolved of readWithin(read, deadlineMs, `read of ${streamId}`)) {
      if (resolved.event) events.push(toRecorded(resolved.event));
    }
    return events;
  }

  async function readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    if (maxCount <= 0) return events;
    // Reads from a position include the event there; ours are filtered out of everything else.
    const read = client.readAll({ fromPosition: after === null ? START : esdbPosition(after), direction: FORWARDS });
    for await (const resolved of readWithin(read, deadlineMs, 'read of $all')) {
      const event = resolved.event;
      if (!event || !ours(event.streamId)) continue;
      const recorded = toRecorded(event);
      if (after !== null && recorded.position <= after) continue;
      events.push(recorded);
      if (events.length >= maxCount) break;
    }
    return events;
  }

  async function headPosition(): Promise<Position | null> {
    const read = client.readAll({ fromPosition: END, direction: BACKWARDS });
    for await (const resolved of readWithin(read, deadlineMs, 'read of the head of $all')) {
      if (resolved.event && ours(resolved.event.streamId)) return toNumber(resolved.event.position.commit, 'position');
    }
    return null;
  }

  return { readStream, readAll, headPosition };
}
