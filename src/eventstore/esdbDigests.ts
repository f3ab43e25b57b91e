import { randomUUID } from 'node:crypto';
import { FORWARDS, START } from '@eventstore/db-client';
import { appendToEsdb, type EsdbAppendCalls } from './esdbAppend.js';
import { type EsdbClient, readWithin } from './esdbClient.js';
import { isStreamNotFound } from './esdbErrors.js';
import { AS_GIVEN } from './esdbRecords.js';
import type { Revision } from './eventStore.js';

/** Streams whose digests this process keeps; beyond it, all are forgotten at once (then read again). */
const MAX_STREAMS = 10_000;
const DIGEST_STREAM_PREFIX = 'matchdigest-';
const DIGEST_EVENT_TYPE = 'ErasedVersionDigests';
const digestStreamOf = (streamId: string) => `${DIGEST_STREAM_PREFIX}${streamId.slice('match-'.length)}`;

type Digests = ReadonlyMap<Revision, string>;

/**
 * The transparency log's digests of a match's versions stored before salts, kept on EventStoreDB
 * beside the match once it is erased (SQLite writes them into the erased events' metadata; an
 * EventStoreDB event cannot be changed). In the clear, in stream `matchdigest-<id>`, written
 * before the key is erased; not a service prefix, so never in `$all` reads or projections.
 * Appended with expected revision "any": a rerun may write the same digests again, harmlessly.
 */
export function createEsdbDigests(client: EsdbClient, calls: EsdbAppendCalls) {
  const known = new Map<string, Digests>();

  async function readDigests(streamId: string): Promise<Digests> {
    const found = new Map<Revision, string>();
    const read = client.readStream(digestStreamOf(streamId), { direction: FORWARDS, fromRevision: START, requiresLeader: true });
    try {
      for await (const resolved of readWithin(read, calls.deadlineMs, `read of ${digestStreamOf(streamId)}`)) {
        const data = resolved.event?.data;
        if (!(data instanceof Uint8Array)) continue;
        const digests: unknown = JSON.parse(Buffer.from(data).toString('utf8'));
        if (typeof digests !== 'object' || digests === null) continue;
        for (const [revision, digest] of Object.entries(digests)) if (typeof digest === 'string') found.set(Number(revision), digest);
      }
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    return found;
  }

  return {
    /** The digests kept for the stream's erased versions stored before salts (none: an empty map). */
    async of(streamId: string): Promise<Digests> {
      const held = known.get(streamId);
      if (held) return held;
      const digests = await readDigests(streamId);
      // None yet may mean not yet written (an erasure under way): read again next time.
      if (digests.size > 0) {
        if (known.size >= MAX_STREAMS) known.clear();
        known.set(streamId, digests);
      }
      return digests;
    },

    /** Keeps digests of versions about to be erased; resolves once durable. */
    async keep(streamId: string, digests: Digests): Promise<void> {
      if (digests.size === 0) return;
      const bytes = Buffer.from(JSON.stringify(Object.fromEntries(digests)));
      const event = { id: randomUUID(), type: DIGEST_EVENT_TYPE, bytes, metadata: { schemaVersion: 1 }, storage: AS_GIVEN };
      await appendToEsdb(client, { streamId: digestStreamOf(streamId), events: [event], expectedRevision: 'any', maxAppendBytes: Infinity }, calls);
    },

    clear() {
      known.clear();
    },
  };
}

export type EsdbDigests = ReturnType<typeof createEsdbDigests>;
