import type { EsdbDigests } from './esdbDigests.js';
import { type EsdbKeys, isSealedStream } from './esdbKeys.js';
import type { EsdbReads } from './esdbReads.js';
import { createEsdbVersions, type EsdbVersions } from './esdbVersions.js';
import type { Revision } from './eventStore.js';
import { unsaltedPayloadSha256 } from './unsaltedDigest.js';
import { createVersionCache } from './versionCache.js';

export interface EsdbErasureDeps {
  reads: EsdbReads;
  keys: EsdbKeys;
  digests: EsdbDigests;
  versions: EsdbVersions;
  keyframeInterval: number;
  /** Told of events a match stream holds in the clear from before sealing (the adapter's logger). */
  logger: { error(obj: object, msg: string): void } | undefined;
}

/**
 * EventStore.erasePayloads on EventStoreDB. Deleting the match's key erases every sealed event
 * of its stream: its versions, named or not (./esdbSealing.ts keeps the rest in the clear).
 * Versions stored before salts first get their unsalted digests kept beside the stream
 * (./esdbDigests.ts), as SQLite writes them into their metadata: the transparency log's leaves.
 */
export function createEsdbErasure({ reads, keys, digests, versions, keyframeInterval, logger }: EsdbErasureDeps) {
  /** The versions named that have no salted digest, read with the key as the server holds it (this process may already have let it go). */
  async function unsaltedDigests(streamId: string, revisions: readonly Revision[]): Promise<Map<Revision, string>> {
    const key = await keys.fromServer(streamId);
    if (key.state === 'erased') return new Map();
    const asBefore = createEsdbVersions({
      readStored: reads.readStored,
      keys: { read: async () => key, markErased: () => false },
      digests,
      versions: createVersionCache(0),
      keyframeInterval,
    });
    const named = new Set(revisions);
    const unsalted = (await reads.readStream(asBefore, streamId)).filter(
      (event) => named.has(event.revision) && event.erased === undefined && event.metadata.payloadSha256 === undefined,
    );
    return new Map(unsalted.map((event) => [event.revision, unsaltedPayloadSha256(event.data)]));
  }

  return async function erasePayloads(streamId: string, revisions: readonly Revision[]): Promise<void> {
    if (!isSealedStream(streamId)) throw new Error(`only match streams are sealed, so only they can be erased on EventStoreDB (${streamId})`);
    await digests.keep(streamId, await unsaltedDigests(streamId, revisions));
    await keys.erase(streamId);
    versions.forgetStream(streamId);
    const clear = (await reads.readStored(streamId)).filter(({ storage }) => !storage.sealed && !storage.afterErasure && !storage.outlivesKey);
    if (clear.length > 0) {
      logger?.error(
        { streamId, events: clear.length },
        'erased match has events stored in the clear before sealing: reads hide them, but their bytes stay in EventStoreDB (docs/operations.md)',
      );
    }
  };
}
