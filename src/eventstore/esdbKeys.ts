import { randomUUID } from 'node:crypto';
import { FORWARDS, NotLeaderError, START, StreamDeletedError } from '@eventstore/db-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendToEsdb, type EsdbAppendCalls } from './esdbAppend.js';
import { type EsdbClient, readWithin } from './esdbClient.js';
import { isStreamNotFound, isWorthRetrying } from './esdbErrors.js';
import { AS_GIVEN } from './esdbRecords.js';
import { WrongExpectedRevisionError } from './eventStore.js';
import { KEY_BYTES, newStreamKey } from './payloadCipher.js';

/**
 * The keys match streams are sealed with on EventStoreDB (docs/decisions.md: erasure on
 * EventStoreDB). Match stream `match-<id>` has its key alone in stream `matchkey-<id>`, one
 * event of 32 random bytes, created by the first append that needs it. Erasing the match
 * tombstones (hard-deletes) that stream: the server refuses it to every read from then on and
 * no one can create it again; a scavenge removes its bytes from the disk.
 *
 * A key read is trusted for `recheckMs`: another process's erasure is seen after at most that.
 */
export type StreamKey = { state: 'key'; key: Buffer } | { state: 'none' } | { state: 'erased' };

/** Streams whose data is sealed: the service's match streams. */
const SEALED_STREAM_PREFIX = 'match-';
const KEY_STREAM_PREFIX = 'matchkey-';
export const isSealedStream = (streamId: string) => streamId.startsWith(SEALED_STREAM_PREFIX);
const keyStreamOf = (streamId: string) => `${KEY_STREAM_PREFIX}${streamId.slice(SEALED_STREAM_PREFIX.length)}`;
const KEY_EVENT_TYPE = 'MatchPayloadKey';

export interface EsdbKeyOptions {
  recheckMs: number;
  /** Keys held in memory; beyond it, all are forgotten at once (then read again). */
  maxKeys: number;
}

export function createEsdbKeys(client: EsdbClient, calls: EsdbAppendCalls, { recheckMs, maxKeys }: EsdbKeyOptions) {
  const known = new Map<string, { key: StreamKey; readAt: number }>();

  function keep(streamId: string, key: StreamKey) {
    if (known.size >= maxKeys && !known.has(streamId)) known.clear();
    known.set(streamId, { key, readAt: Date.now() });
    return key;
  }

  async function readOnce(keyStream: string): Promise<StreamKey> {
    const read = client.readStream(keyStream, { direction: FORWARDS, fromRevision: START, maxCount: 1, requiresLeader: true });
    for await (const resolved of readWithin(read, calls.deadlineMs, `read of ${keyStream}`)) {
      const data = resolved.event?.data;
      if (!(data instanceof Uint8Array) || data.byteLength !== KEY_BYTES) throw new Error(`${keyStream} holds no ${KEY_BYTES}-byte key`);
      return { state: 'key', key: Buffer.from(data) };
    }
    return { state: 'none' };
  }

  async function readKey(streamId: string): Promise<StreamKey> {
    const keyStream = keyStreamOf(streamId);
    const asAnswer = (error: unknown): StreamKey => {
      if (isStreamNotFound(error)) return { state: 'none' };
      if (error instanceof StreamDeletedError) return { state: 'erased' };
      throw error;
    };
    try {
      return await readOnce(keyStream);
    } catch (error) {
      if (!(error instanceof NotLeaderError)) return asAnswer(error);
      // The client has turned to the leader it was told of.
      return readOnce(keyStream).catch(asAnswer);
    }
  }

  async function createKey(streamId: string): Promise<StreamKey> {
    const key = newStreamKey();
    const event = { id: randomUUID(), type: KEY_EVENT_TYPE, bytes: key, metadata: { schemaVersion: 1 }, storage: AS_GIVEN };
    try {
      await appendToEsdb(client, { streamId: keyStreamOf(streamId), events: [event], expectedRevision: 'no_stream', maxAppendBytes: Infinity }, calls);
      return { state: 'key', key };
    } catch (error) {
      if (error instanceof StreamDeletedError) return { state: 'erased' };
      // Another writer made it first: theirs is the key.
      if (error instanceof WrongExpectedRevisionError) return readKey(streamId);
      throw error;
    }
  }

  return {
    /** The stream's key as stored: a key, none yet, or erased (for good). */
    async read(streamId: string): Promise<StreamKey> {
      const held = known.get(streamId);
      if (held && (held.key.state === 'erased' || Date.now() - held.readAt < recheckMs)) return held.key;
      return keep(streamId, await readKey(streamId));
    },

    /** The stream's key as the server holds it now, whatever this process was told (not kept). */
    fromServer: readKey,

    /** The key to seal an append with, created when the stream has none; `new`: the stream is known not to exist. */
    async forWrite(streamId: string, isNew: boolean): Promise<StreamKey> {
      const held = isNew ? undefined : await this.read(streamId);
      if (held && held.state !== 'none') return held;
      return keep(streamId, await createKey(streamId));
    },

    /** Tombstones the stream's key stream (made again when unanswered; an already tombstoned one is done). */
    async erase(streamId: string): Promise<void> {
      const options = { expectedRevision: 'any' as const, credentials: calls.credentials, deadline: calls.deadlineMs };
      for (let attempt = 1; ; attempt += 1) {
        try {
          await client.tombstoneStream(keyStreamOf(streamId), options);
          break;
        } catch (error) {
          if (error instanceof StreamDeletedError) break;
          if (!isWorthRetrying(error) || attempt >= calls.attempts) throw error;
          await sleep(calls.retryDelayMs * 2 ** (attempt - 1));
        }
      }
      keep(streamId, { state: 'erased' });
    },

    /** The stream's key is known erased (a reader met the record of its erasure); whether that is news. */
    markErased(streamId: string): boolean {
      if (known.get(streamId)?.key.state === 'erased') return false;
      keep(streamId, { state: 'erased' });
      return true;
    },

    /** Forgets what was read, as a restart would. */
    clear() {
      known.clear();
    },
  };
}

export type EsdbKeys = ReturnType<typeof createEsdbKeys>;
