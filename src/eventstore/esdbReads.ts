import { BACKWARDS, END, FORWARDS, NotLeaderError, START } from '@eventstore/db-client';
import { type EsdbClient, readWithin } from './esdbClient.js';
import { isStreamNotFound } from './esdbErrors.js';
import { esdbPosition, type EsdbStoredEvent, toNumber, toStoredEvent } from './esdbRecords.js';
import type { EsdbVersions } from './esdbVersions.js';
import { type Position, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent, UnreadableEventError } from './eventStore.js';

/**
 * Reads of EventStoreDB for the port. The log may hold other software's streams: reads of the
 * whole log keep the service's only (`ours`, by stream-name prefix). Each read fails once the
 * server sends nothing for `deadlineMs`. Data is read as stored and given whole (./esdbVersions.ts).
 *
 * A stream is read from the leader only (`requiresLeader`): a writer decides on what it
 * read, and after a failover the client may still be on a node that has not received the
 * latest appends. A follower's refusal turns the client to the leader; the read is made once
 * more there. Reads of $all (projections, replays) take any node: a lagging one only delays.
 */
export function createEsdbReads(client: EsdbClient, ours: (streamId: string) => boolean, deadlineMs: number) {
  /** The stream's events as stored; an empty array when it does not exist. */
  async function readStored(streamId: string, options: ReadStreamOptions = {}): Promise<EsdbStoredEvent[]> {
    try {
      return await readStoredOnce(streamId, options);
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      if (!(error instanceof NotLeaderError)) throw error;
      // The client has turned to the leader it was told of.
      return readStoredOnce(streamId, options).catch((again: unknown) => (isStreamNotFound(again) ? [] : Promise.reject(again)));
    }
  }

  async function readStoredOnce(streamId: string, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions): Promise<EsdbStoredEvent[]> {
    const events: EsdbStoredEvent[] = [];
    const read = client.readStream(streamId, {
      direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
      fromRevision: fromRevision === undefined ? (direction === 'forwards' ? START : END) : BigInt(fromRevision),
      requiresLeader: true,
      ...(maxCount === undefined ? {} : { maxCount }),
    });
    for await (const resolved of readWithin(read, deadlineMs, `read of ${streamId}`)) {
      if (resolved.event) events.push(toStoredEvent(resolved.event));
    }
    return events;
  }

  /** A stream's events, whole; the first that cannot be read fails the read. */
  async function readStream(versions: EsdbVersions, streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stored = await readStored(streamId, options);
    const forwards = (options.direction ?? 'forwards') === 'forwards';
    // Deltas are decoded in ascending revision.
    const { events, unreadable } = await versions.decode(forwards ? stored : [...stored].reverse());
    if (unreadable) throw unreadable;
    return forwards ? events : events.reverse();
  }

  /** The log in order, whole. An event that cannot be read ends the read after the readable ones before it; read from there, it fails. */
  async function readAll(versions: EsdbVersions, { after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const stored: EsdbStoredEvent[] = [];
    let unreadable: UnreadableEventError | null = null;
    if (maxCount <= 0) return [];
    // Reads from a position include the event there; ours are filtered out of everything else.
    const read = client.readAll({ fromPosition: after === null ? START : esdbPosition(after), direction: FORWARDS });
    for await (const resolved of readWithin(read, deadlineMs, 'read of $all')) {
      const event = resolved.event;
      if (!event || !ours(event.streamId)) continue;
      let one: EsdbStoredEvent;
      try {
        one = toStoredEvent(event);
      } catch (error) {
        if (!(error instanceof UnreadableEventError)) throw error;
        unreadable = error;
        break;
      }
      if (after !== null && one.event.position <= after) continue;
      stored.push(one);
      if (stored.length >= maxCount) break;
    }
    const decoded = await versions.decode(stored);
    const failure = decoded.unreadable ?? unreadable;
    if (failure && decoded.events.length === 0) throw failure;
    return decoded.events;
  }

  async function headPosition(): Promise<Position | null> {
    const read = client.readAll({ fromPosition: END, direction: BACKWARDS });
    for await (const resolved of readWithin(read, deadlineMs, 'read of the head of $all')) {
      if (resolved.event && ours(resolved.event.streamId)) return toNumber(resolved.event.position.commit, 'position');
    }
    return null;
  }

  return { readStored, readStream, readAll, headPosition };
}
export type EsdbReads = ReturnType<typeof createEsdbReads>;
