import type { EsdbKeys } from './esdbKeys.js';
import type { EsdbDigests } from './esdbDigests.js';
import type { EsdbStorage, EsdbStoredEvent } from './esdbRecords.js';
import { isErasureRecord } from './esdbSealing.js';
import type { EsdbVersionChain } from './esdbVersionChain.js';
import { ERASED_DATA, type RecordedEvent, type Revision, UnreadableEventError } from './eventStore.js';
import { type StoredData, UndecodableVersionError, wholeData } from './storedVersions.js';
import type { VersionCache } from './versionCache.js';

interface EsdbBatchDecodeDeps {
  chain: Pick<EsdbVersionChain, 'keyOf' | 'opened' | 'versionAt'>;
  keys: Pick<EsdbKeys, 'markErased'>;
  /** Digests of erased versions stored before salts (./esdbDigests.ts). */
  digests: Pick<EsdbDigests, 'of'>;
  versions: VersionCache;
  /** Every version of the stream this process holds is let go (its data was erased). */
  forgetStream(streamId: string): void;
}

/** An event's data opened (no longer sealed) but still encoded; or erased. */
type Opened = { event: EsdbStoredEvent; stored: StoredData | null };

const at = (streamId: string, revision: Revision) => `${revision}\u0000${streamId}`;

/** The erasure record in the clear, or (before issue 58) any event appended in the clear after the key was erased. */
const isRecordOfErasure = (type: string, storage: EsdbStorage) => storage.afterErasure || (storage.outlivesKey && isErasureRecord(type));

/**
 * The port's events of events read in ascending revision per stream (global order does),
 * up to the first that cannot be read, which is returned as `unreadable`. An erased event
 * is given with `erased` and ERASED_DATA. Other errors (the network) are thrown.
 */
export async function decodeEsdbBatch(
  events: readonly EsdbStoredEvent[],
  deps: EsdbBatchDecodeDeps,
): Promise<{ events: RecordedEvent[]; unreadable: UnreadableEventError | null }> {
  const { chain, keys } = deps;
  // A record of an erasure tells every reader at once that the stream's key is gone (or is going).
  for (const { event, storage } of events) if (isRecordOfErasure(event.type, storage) && keys.markErased(event.streamId)) deps.forgetStream(event.streamId);
  const streams = [...new Set(events.map(({ event }) => event.streamId))];
  const streamKeys = new Map(await Promise.all(streams.map(async (streamId) => [streamId, await chain.keyOf(streamId)] as const)));
  const items: Opened[] = [];
  let failure: UndecodableVersionError | null = null;
  for (const event of events) {
    try {
      items.push({ event, stored: chain.opened(event, streamKeys.get(event.event.streamId)!) });
    } catch (error) {
      if (!(error instanceof UndecodableVersionError)) throw error;
      failure = error;
      break;
    }
  }
  const whole = await wholeOf(items, deps);
  failure = whole.failure ?? failure;
  const recorded = await withKeptDigests(
    whole.data.map((data, i): RecordedEvent => {
      const { event } = items[i]!;
      return data === null ? { ...event.event, data: ERASED_DATA, erased: true } : { ...event.event, data };
    }),
    deps.digests,
  );
  const failed = failure && events.find(({ event }) => event.streamId === failure.streamId && event.revision === failure.revision);
  const unreadable = failure && new UnreadableEventError(failure.streamId, String(failed?.event.position ?? 'none'), failure.message);
  return { events: recorded, unreadable };
}

/** Whole data of opened events, in order; stops at the first that cannot be rebuilt. */
async function wholeOf(
  items: Opened[],
  deps: Pick<EsdbBatchDecodeDeps, 'chain' | 'versions'>,
): Promise<{ data: (string | null)[]; failure: UndecodableVersionError | null }> {
  const { chain, versions } = deps;
  const inBatch = new Set(items.filter((item) => item.stored !== null).map((item) => at(item.event.event.streamId, item.event.event.revision)));
  const bases = new Map<string, Buffer>();
  for (const [index, { event, stored }] of items.entries()) {
    if (stored?.encoding !== 'delta' || stored.baseRevision === null) continue;
    const { streamId } = event.event;
    const base = at(streamId, stored.baseRevision);
    if (inBatch.has(base) || bases.has(base)) continue;
    try {
      bases.set(base, await chain.versionAt(streamId, stored.baseRevision));
    } catch (error) {
      if (!(error instanceof UndecodableVersionError)) throw error;
      const before = await wholeOf(items.slice(0, index), deps);
      return { data: before.data, failure: before.failure ?? new UndecodableVersionError(streamId, event.event.revision, error.message) };
    }
  }
  const encoded = items.flatMap(({ event, stored }) => (stored === null ? [] : [{ streamId: event.event.streamId, revision: event.event.revision, stored }]));
  const baseOf = (streamId: string, revision: Revision) => {
    const bytes = bases.get(at(streamId, revision));
    if (!bytes) throw new UndecodableVersionError(streamId, revision, 'a base that cannot be found');
    return bytes;
  };
  try {
    const whole = wholeData(encoded, baseOf, (streamId, revision, bytes) => versions.set(streamId, revision, bytes));
    let next = 0;
    return { data: items.map(({ stored }) => (stored === null ? null : whole[next++]!)), failure: null };
  } catch (error) {
    if (!(error instanceof UndecodableVersionError)) throw error;
    const index = items.findIndex((item) => item.event.event.streamId === error.streamId && item.event.event.revision === error.revision);
    if (index <= 0) return { data: [], failure: error };
    const before = await wholeOf(items.slice(0, index), deps);
    return { data: before.data, failure: before.failure ?? error };
  }
}

/** Erased versions stored before salts get the digest kept for them in their metadata, as SQLite writes it there. */
async function withKeptDigests(events: RecordedEvent[], digests: Pick<EsdbDigests, 'of'>): Promise<RecordedEvent[]> {
  const lacking = (event: RecordedEvent) => event.erased === true && event.metadata.payloadSha256 === undefined;
  const streams = [...new Set(events.filter(lacking).map((event) => event.streamId))];
  if (streams.length === 0) return events;
  const kept = new Map(await Promise.all(streams.map(async (streamId) => [streamId, await digests.of(streamId)] as const)));
  return events.map((event) => {
    const payloadSha256 = lacking(event) ? kept.get(event.streamId)?.get(event.revision) : undefined;
    return payloadSha256 === undefined ? event : { ...event, metadata: { ...event.metadata, payloadSha256 } };
  });
}
