import { appendToEsdb, type EsdbAppendCalls } from './esdbAppend.js';
import type { EsdbClient } from './esdbClient.js';
import { type EsdbKeys, isSealedStream, type StreamKey } from './esdbKeys.js';
import { AS_GIVEN, type EsdbProposal, toEventData } from './esdbRecords.js';
import { isErasureRecord, outlivesKey } from './esdbSealing.js';
import type { EsdbVersions } from './esdbVersions.js';
import { AppendTooLargeError, type AppendResult, type ExpectedRevision, type NewEvent, StreamErasedError } from './eventStore.js';
import { seal, sealContext, SEAL_OVERHEAD } from './payloadCipher.js';
import { MIN_VERSION_BYTES, type StoredData } from './storedVersions.js';

interface EsdbWriteDeps {
  client: EsdbClient;
  calls: EsdbAppendCalls;
  keys: Pick<EsdbKeys, 'read' | 'forWrite'>;
  versions: Pick<EsdbVersions, 'tipAt' | 'encode' | 'appended' | 'forgetTip' | 'carryTip'>;
  /** The server's MaxAppendSize in bytes. */
  maxAppendBytes: number;
}

/**
 * The EventStoreDB store's write path (./esdbEventStore.ts): an append's events encoded against
 * the stream's newest version (./esdbVersions.ts), sealed with a match stream's key
 * (./esdbKeys.ts), and appended (./esdbAppend.ts). The caller has checked them (./eventChecks.ts).
 */
export function createEsdbWrites({ client, calls, keys, versions, maxAppendBytes }: EsdbWriteDeps) {
  /** The stored form of the events: in a match stream sealed with `key`, but those that outlive it (./esdbSealing.ts), in the clear and marked so. */
  function proposals(events: readonly NewEvent[], stored: StoredData[], streamId: string, key: StreamKey | 'unsealed'): EsdbProposal[] {
    return events.map((event, i) => {
      const { data, encoding, baseRevision } = stored[i]!;
      const plain = typeof data === 'string' ? Buffer.from(data) : data;
      const storage = { ...AS_GIVEN, encoding, baseRevision };
      const common = { id: event.id, type: event.type, metadata: event.metadata };
      if (key === 'unsealed') return { ...common, bytes: plain, storage };
      if (outlivesKey(event.type)) return { ...common, bytes: plain, storage: { ...storage, outlivesKey: true } };
      if (key.state === 'erased') throw new StreamErasedError(streamId);
      if (key.state === 'none') return { ...common, bytes: plain, storage };
      return { ...common, bytes: seal(key.key, sealContext(streamId, event.id), plain), storage: { ...storage, sealed: true } };
    });
  }

  /**
   * The key to seal a match stream's append with. Once the key is erased the stream takes
   * records of its erasure only (StreamErasedError): an erased id is never used again.
   */
  async function keyToSeal(streamId: string, events: readonly NewEvent[], knownKey: StreamKey, isNew: boolean): Promise<StreamKey> {
    if (events.every((event) => isErasureRecord(event.type))) return knownKey;
    const key = knownKey.state === 'none' ? await keys.forWrite(streamId, isNew) : knownKey;
    if (key.state === 'erased') throw new StreamErasedError(streamId);
    return key;
  }

  /**
   * Encodes against the stream's newest version at the expected revision, refuses what would
   * exceed MaxAppendSize before a key is made, seals, appends; the stream's end is then known.
   */
  return async function append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const sealed = isSealedStream(streamId);
    const isNew = expectedRevision === 'no_stream';
    const knownKey: StreamKey = sealed && !isNew ? await keys.read(streamId) : { state: 'none' };
    const hasVersion = events.some((event) => event.data.length >= MIN_VERSION_BYTES);
    const firstRevision = expectedRevision === 'any' ? null : isNew ? 0 : expectedRevision + 1;
    const tip = typeof expectedRevision === 'number' && hasVersion ? await versions.tipAt(streamId, expectedRevision, knownKey) : null;
    const encoded = versions.encode(events, firstRevision, tip);
    const { bytes } = toEventData(proposals(events, encoded.stored, streamId, 'unsealed'));
    // Sealing adds its nonce and tag to the data, and `,"stored":{"cipher":"aes-256-gcm"}` at most to the metadata.
    const upperBound = bytes + (sealed ? events.length * (SEAL_OVERHEAD + 34) : 0);
    if (upperBound > maxAppendBytes) throw new AppendTooLargeError(streamId, upperBound, maxAppendBytes);
    const key = sealed ? await keyToSeal(streamId, events, knownKey, isNew) : 'unsealed';
    try {
      const result = await appendToEsdb(
        client,
        { streamId, events: proposals(events, encoded.stored, streamId, key), expectedRevision, maxAppendBytes },
        calls,
      );
      // The stream's end is known only when the server put the events where they were encoded for.
      const asEncoded = firstRevision !== null && result.nextExpectedRevision === firstRevision + events.length - 1;
      if (!asEncoded) versions.forgetTip(streamId);
      else if (hasVersion || firstRevision === 0) versions.appended(streamId, result.nextExpectedRevision, encoded.tip);
      else versions.carryTip(streamId, firstRevision - 1, result.nextExpectedRevision);
      return result;
    } catch (error) {
      versions.forgetTip(streamId);
      throw error;
    }
  };
}
