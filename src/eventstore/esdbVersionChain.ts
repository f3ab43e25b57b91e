import { baseRevisionOf, type ChainLink, rebuildChain } from './deltaChain.js';
import { type EsdbKeys, isSealedStream, type StreamKey } from './esdbKeys.js';
import type { EsdbStoredEvent } from './esdbRecords.js';
import type { ReadStreamOptions, Revision } from './eventStore.js';
import { open, sealContext, UnsealableDataError } from './payloadCipher.js';
import { type StoredData, UndecodableVersionError } from './storedVersions.js';
import type { VersionCache } from './versionCache.js';

/** How far back from a stream's end the write path looks for its newest version. */
export const TIP_SEARCH_ROWS = 64;

interface EsdbVersionChainDeps {
  readStored(streamId: string, options: ReadStreamOptions): Promise<EsdbStoredEvent[]>;
  keys: Pick<EsdbKeys, 'read'>;
  versions: VersionCache;
  keyframeInterval: number;
}

/**
 * Reading and opening versions on EventStoreDB (./esdbVersions.ts): an event's data opened with
 * its stream's key, and a version's whole bytes rebuilt back to its keyframe (./deltaChain.ts)
 * from the events read before it, the cache of versions, or the stream.
 */
export function createEsdbVersionChain({ readStored, keys, versions, keyframeInterval }: EsdbVersionChainDeps) {
  const chainWindow = Math.min(256, Math.max(TIP_SEARCH_ROWS, 2 * keyframeInterval + 2));

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

  return { keyOf, opened, eventAt, versionAt };
}

export type EsdbVersionChain = ReturnType<typeof createEsdbVersionChain>;
