import { baseRevisionOf, type ChainLink, rebuildChain } from './deltaChain.js';
import { type EsdbKeys, isSealedStream, type StreamKey } from './esdbKeys.js';
import type { EsdbDigests } from './esdbDigests.js';
import type { EsdbStorage, EsdbStoredEvent } from './esdbRecords.js';
import { isErasureRecord } from './esdbSealing.js';
import { ERASED_DATA, type NewEvent, type ReadStreamOptions, type RecordedEvent, type Revision, UnreadableEventError } from './eventStore.js';
import { open, sealContext, SEAL_OVERHEAD, UnsealableDataError } from './payloadCipher.js';
import { encodeVersion, MIN_VERSION_BYTES, type StoredData, UndecodableVersionError, type VersionTip, wholeData } from './storedVersions.js';
import { keepTip, type VersionCache } from './versionCache.js';

/** How far back from a stream's end the write path looks for its newest version. */
const TIP_SEARCH_ROWS = 64;
/** Streams whose end and newest version this process knows: beyond it, all are forgotten at once. */
const MAX_TIPS = 10_000;

export interface EsdbVersionDeps {
  readStored(streamId: string, options: ReadStreamOptions): Promise<EsdbStoredEvent[]>;
  keys: Pick<EsdbKeys, 'read' | 'markErased'>;
  /** Digests of erased versions stored before salts (./esdbDigests.ts). */
  digests: Pick<EsdbDigests, 'of'>;
  versions: VersionCache;
  keyframeInterval: number;
}

/** What the write path knows of a stream: where it ends and its newest version there. */
interface StreamTip {
  head: Revision;
  version: { revision: Revision; depth: number } | null;
}

/** An event's data opened (no longer sealed) but still encoded; or erased. */
type Opened = { event: EsdbStoredEvent; stored: StoredData | null };

const at = (streamId: string, revision: Revision) => `${revision}\u0000${streamId}`;

/** The erasure record in the clear, or (before issue 58) any event appended in the clear after the key was erased. */
const isRecordOfErasure = (type: string, storage: EsdbStorage) => storage.afterErasure || (storage.outlivesKey && isErasureRecord(type));

/**
 * Versions on EventStoreDB, stored as SQLite stores them (./storedVersions.ts: deltas against
 * the stream's previous version, keyframes every K) and, in match streams, sealed with the
 * stream's key (./payloadCipher.ts, ./esdbKeys.ts). Reads give whole data byte for byte; a
 * delta's base is taken from the events read before it, the cache of versions, or the stream
 * back to its keyframe. Appends take their base from the cache only when the stream's end it
 * knows is the expected revision, else from the stream.
 */
export function createEsdbVersions({ readStored, keys, digests, versions, keyframeInterval }: EsdbVersionDeps) {
  const tips = new Map<string, StreamTip>();
  const chainWindow = Math.min(256, Math.max(TIP_SEARCH_ROWS, 2 * keyframeInterval + 2));

  /** Every version of the stream this process holds is let go (its data was erased). */
  function forgetStream(streamId: string) {
    tips.delete(streamId);
    versions.forget(streamId);
  }

  async function keyOf(streamId: string): Promise<StreamKey> {
    return isSealedStream(streamId) ? keys.read(streamId) : { state: 'none' };
  }

  /** The data as stored, opened with the stream's key; null when it was erased. UndecodableVersionError when it cannot be opened. */
  function opened(event: EsdbStoredEvent, key: StreamKey): StoredData | null {
    const { streamId, revision, id } = event.event;
    const { storage } = event;
    if (key.state === 'erased' && !storage.afterErasure && !storage.outlivesKey) return null;
    let data = event.bytes;
    if (storage.sealed) {
      if (key.state !== 'key') throw new UndecodableVersionError(streamId, revision, 'sealed, but its stream has no key');
      try {
        data = open(key.key, sealContext(streamId, id), data);
      } catch (error) {
        if (error instanceof UnsealableDataError) throw new UndecodableVersionError(streamId, revision, error.message);
        throw error;
      }
    }
    return { data, encoding: storage.encoding, baseRevision: storage.baseRevision };
  }

  /** One event of a stream, from `window` when it holds it. */
  async function eventAt(streamId: string, revision: Revision, window: Map<Revision, EsdbStoredEvent>): Promise<EsdbStoredEvent> {
    const held = window.get(revision) ?? (await readStored(streamId, { fromRevision: revision, maxCount: 1 }))[0];
    if (held?.event.revision !== revision) throw new UndecodableVersionError(streamId, revision, 'its chain names a revision that is not stored');
    return held;
  }

  /** A version's bytes: cached, else rebuilt from its keyframe (at most K steps, read in one call when they fit). */
  async function versionAt(streamId: string, revision: Revision, window = new Map<Revision, EsdbStoredEvent>()): Promise<Buffer> {
    const cached = versions.get(streamId, revision);
    if (cached) return cached;
    if (!window.has(revision)) {
      for (const event of await readStored(streamId, { fromRevision: revision, direction: 'backwards', maxCount: chainWindow }))
        window.set(event.event.revision, event);
    }
    const key = await keyOf(streamId);
    const chain: ChainLink[] = [];
    let base: Buffer | undefined;
    for (let step: Revision | null = revision; step !== null; ) {
      const stored = opened(await eventAt(streamId, step, window), key);
      if (stored === null) throw new UndecodableVersionError(streamId, step, 'a delta on an erased version');
      const link = { revision: step, stored };
      chain.push(link);
      const next = baseRevisionOf(streamId, link);
      base = next === null ? undefined : versions.get(streamId, next);
      step = base ? null : next;
    }
    const bytes = rebuildChain(streamId, chain, base);
    versions.set(streamId, revision, bytes);
    return bytes;
  }

  /** Whole data of opened events, in order; stops at the first that cannot be rebuilt. */
  async function wholeOf(items: Opened[]): Promise<{ data: (string | null)[]; failure: UndecodableVersionError | null }> {
    const inBatch = new Set(items.filter((item) => item.stored !== null).map((item) => at(item.event.event.streamId, item.event.event.revision)));
    const bases = new Map<string, Buffer>();
    for (const [index, { event, stored }] of items.entries()) {
      if (stored?.encoding !== 'delta' || stored.baseRevision === null) continue;
      const { streamId } = event.event;
      const base = at(streamId, stored.baseRevision);
      if (inBatch.has(base) || bases.has(base)) continue;
      try {
        bases.set(base, await versionAt(streamId, stored.baseRevision));
      } catch (error) {
        if (!(error instanceof UndecodableVersionError)) throw error;
        const before = await wholeOf(items.slice(0, index));
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
      const before = await wholeOf(items.slice(0, index));
      return { data: before.data, failure: before.failure ?? error };
    }
  }

  /** Erased versions stored before salts get the digest kept for them in their metadata, as SQLite writes it there. */
  async function withKeptDigests(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const lacking = (event: RecordedEvent) => event.erased === true && event.metadata.payloadSha256 === undefined;
    const streams = [...new Set(events.filter(lacking).map((event) => event.streamId))];
    if (streams.length === 0) return events;
    const kept = new Map(await Promise.all(streams.map(async (streamId) => [streamId, await digests.of(streamId)] as const)));
    return events.map((event) => {
      const payloadSha256 = lacking(event) ? kept.get(event.streamId)?.get(event.revision) : undefined;
      return payloadSha256 === undefined ? event : { ...event, metadata: { ...event.metadata, payloadSha256 } };
    });
  }

  return {
    /**
     * The port's events of events read in ascending revision per stream (global order does),
     * up to the first that cannot be read, which is returned as `unreadable`. An erased event
     * is given with `erased` and ERASED_DATA. Other errors (the network) are thrown.
     */
    async decode(events: readonly EsdbStoredEvent[]): Promise<{ events: RecordedEvent[]; unreadable: UnreadableEventError | null }> {
      // A record of an erasure tells every reader at once that the stream's key is gone (or is going).
      for (const { event, storage } of events) if (isRecordOfErasure(event.type, storage) && keys.markErased(event.streamId)) forgetStream(event.streamId);
      const streams = [...new Set(events.map(({ event }) => event.streamId))];
      const streamKeys = new Map(await Promise.all(streams.map(async (streamId) => [streamId, await keyOf(streamId)] as const)));
      const items: Opened[] = [];
      let failure: UndecodableVersionError | null = null;
      for (const event of events) {
        try {
          items.push({ event, stored: opened(event, streamKeys.get(event.event.streamId)!) });
        } catch (error) {
          if (!(error instanceof UndecodableVersionError)) throw error;
          failure = error;
          break;
        }
      }
      const whole = await wholeOf(items);
      failure = whole.failure ?? failure;
      const recorded = await withKeptDigests(
        whole.data.map((data, i): RecordedEvent => {
          const { event } = items[i]!;
          return data === null ? { ...event.event, data: ERASED_DATA, erased: true } : { ...event.event, data };
        }),
      );
      const failed = failure && events.find(({ event }) => event.streamId === failure.streamId && event.revision === failure.revision);
      const unreadable = failure && new UnreadableEventError(failure.streamId, String(failed?.event.position ?? 'none'), failure.message);
      return { events: recorded, unreadable };
    },

    /**
     * The stream's newest version at `expected` (the writer's expected revision), which the
     * next version is stored against: the cached one when the stream's end this process knows
     * is `expected`, else found in the stream's last events and rebuilt. None in an erased stream.
     */
    async tipAt(streamId: string, expected: Revision, key: StreamKey): Promise<VersionTip | null> {
      if (key.state === 'erased' || keyframeInterval === 0) return null;
      const known = tips.get(streamId);
      if (known?.head === expected) return known.version && { ...known.version, bytes: await versionAt(streamId, known.version.revision) };
      const window = new Map<Revision, EsdbStoredEvent>();
      const last = await readStored(streamId, { fromRevision: expected, direction: 'backwards', maxCount: TIP_SEARCH_ROWS });
      for (const event of last) window.set(event.event.revision, event);
      const plainBytes = ({ bytes, storage }: EsdbStoredEvent) => bytes.length - (storage.sealed ? SEAL_OVERHEAD : 0);
      const tip = last.find((event) => event.storage.encoding !== null || plainBytes(event) >= MIN_VERSION_BYTES);
      if (!tip) return null;
      let depth = 0;
      for (
        let step = tip;
        step.storage.encoding === 'delta' && step.storage.baseRevision !== null && step.storage.baseRevision < step.event.revision;
        depth += 1
      ) {
        step = await eventAt(streamId, step.storage.baseRevision, window);
      }
      return { revision: tip.event.revision, depth, bytes: await versionAt(streamId, tip.event.revision, window) };
    },

    /** The stream now ends at `head` with `tip` its newest version (after an append the server acknowledged). */
    appended(streamId: string, head: Revision, tip: VersionTip | null) {
      const before = tips.get(streamId)?.version ?? null;
      if (tips.size >= MAX_TIPS && !tips.has(streamId)) tips.clear();
      tips.set(streamId, { head, version: tip && { revision: tip.revision, depth: tip.depth } });
      keepTip(versions, streamId, before, tip);
    },

    /** What this process knows of the stream's end is no longer trusted (a failed append). */
    forgetTip(streamId: string) {
      tips.delete(streamId);
    },

    forgetStream,

    /** An append without versions moved the stream from `expected` to `head`: its newest version, if known, is still the one. */
    carryTip(streamId: string, expected: Revision, head: Revision) {
      const known = tips.get(streamId);
      if (known?.head === expected) tips.set(streamId, { ...known, head });
      else tips.delete(streamId);
    },

    /** The stored form of an append's events: versions encoded against `tip`, the stream's newest before them. */
    encode(events: readonly NewEvent[], firstRevision: Revision | null, tip: VersionTip | null) {
      // Without known revisions (expected revision "any") every version is stored as given.
      const interval = firstRevision === null ? 0 : keyframeInterval;
      let newest = tip;
      const stored = events.map((event, i) => {
        const encoded = encodeVersion(event.data, (firstRevision ?? 0) + i, newest, interval);
        newest = encoded.tip;
        return encoded.stored;
      });
      return { stored, tip: newest };
    },

    clear() {
      tips.clear();
      versions.clear();
    },
  };
}

export type EsdbVersions = ReturnType<typeof createEsdbVersions>;
