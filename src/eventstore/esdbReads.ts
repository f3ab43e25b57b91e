import { BACKWARDS, END, type EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import { isStreamNotFound } from './esdbErrors.js';
import { esdbPosition, toNumber, toRecorded } from './esdbRecords.js';
import type { Position, ReadAllOptions, ReadStreamOptions, RecordedEvent } from './eventStore.js';

/**
 * Reads of EventStoreDB for the port. The log may hold other software's streams: reads of the
 * whole log keep the service's only (`ours`, by stream-name prefix).
 */
export function createEsdbReads(client: EventStoreDBClient, ours: (streamId: string) => boolean) {
  async function readStream(streamId: string, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = client.readStream(streamId, {
        direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
        fromRevision: fromRevision === undefined ? (direction === 'forwards' ? START : END) : BigInt(fromRevision),
        ...(maxCount === undefined ? {} : { maxCount }),
      });
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecorded(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async function readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    if (maxCount <= 0) return events;
    // Reads from a position include the event there; ours are filtered out of everything else.
    const read = client.readAll({ fromPosition: after === null ? START : esdbPosition(after), direction: FORWARDS });
    try {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event || !ours(event.streamId)) continue;
        const recorded = toRecorded(event);
        if (after !== null && recorded.position <= after) continue;
        events.push(recorded);
        if (events.length >= maxCount) break;
      }
    } finally {
      await read.cancel();
    }
    return events;
  }

  async function headPosition(): Promise<Position | null> {
    const read = client.readAll({ fromPosition: END, direction: BACKWARDS });
    try {
      for await (const resolved of read) {
        if (resolved.event && ours(resolved.event.streamId)) return toNumber(resolved.event.position.commit, 'position');
      }
      return null;
    } finally {
      await read.cancel();
    }
  }

  return { readStream, readAll, headPosition };
}
