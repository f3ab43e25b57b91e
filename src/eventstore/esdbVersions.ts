import { decodeEsdbBatch } from './esdbBatchDecode.js';
import type { EsdbKeys, StreamKey } from './esdbKeys.js';
import type { EsdbDigests } from './esdbDigests.js';
import type { EsdbStoredEvent } from './esdbRecords.js';
import { createEsdbVersionChain, TIP_SEARCH_ROWS } from './esdbVersionChain.js';
import type { NewEvent, ReadStreamOptions, Revision } from './eventStore.js';
import { SEAL_OVERHEAD } from './payloadCipher.js';
import { encodeVersion, MIN_VERSION_BYTES, type VersionTip } from './storedVersions.js';
import { keepTip, type VersionCache } from './versionCache.js';

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

/**
 * Versions on EventStoreDB, stored as SQLite stores them (./storedVersions.ts: deltas against
 * the stream's previous version, keyframes every K) and, in match streams, sealed with the
 * stream's key (./payloadCipher.ts, ./esdbKeys.ts). Reads give whole data byte for byte; a
 * delta's base is taken from the events read before it, the cache of versions, or the stream
 * back to its keyframe (./esdbVersionChain.ts, a batch in ./esdbBatchDecode.ts). Appends take
 * their base from the cache only when the stream's end it knows is the expected revision, else
 * from the stream: this file is the write path's tips.
 */
export function createEsdbVersions({ readStored, keys, digests, versions, keyframeInterval }: EsdbVersionDeps) {
  const tips = new Map<string, StreamTip>();
  const chain = createEsdbVersionChain({ readStored, keys, versions, keyframeInterval });
  const { eventAt, versionAt } = chain;

  /** Every version of the stream this process holds is let go (its data was erased). */
  function forgetStream(streamId: string) {
    tips.delete(streamId);
    versions.forget(streamId);
  }

  return {
    /** Events as read, whole, up to the first that cannot be read (./esdbBatchDecode.ts). */
    decode: (events: readonly EsdbStoredEvent[]) => decodeEsdbBatch(events, { chain, keys, digests, versions, forgetStream }),

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
