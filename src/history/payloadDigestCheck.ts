import { decodeMatchEvent } from '../domain/matchEvents.js';
import { payloadDigest } from '../domain/payloadDigest.js';
import type { EventStore, Position } from '../eventstore/eventStore.js';

export interface PayloadDigestCheck {
  /** Versions stored with a digest, all checked. */
  checked: number;
  /** Versions stored before digests were kept: nothing to check them against. */
  undigested: number;
  /** Versions whose text no longer gives the digest stored with it: the log was edited. */
  mismatches: { streamId: string; revision: number }[];
}

/** Reads the whole log and checks every match version's payload against its stored digest. */
export async function checkPayloadDigests(eventStore: EventStore, pageSize = 500): Promise<PayloadDigestCheck> {
  const result: PayloadDigestCheck = { checked: 0, undigested: 0, mismatches: [] };
  let after: Position | null = null;
  for (;;) {
    const page = await eventStore.readAll({ after, maxCount: pageSize });
    if (page.length === 0) return result;
    for (const recorded of page) {
      const version = decodeMatchEvent(recorded.type, recorded.data);
      if (version === null) continue;
      const stored = version.data.payloadDigest;
      if (stored === undefined) result.undigested += 1;
      else {
        result.checked += 1;
        if (payloadDigest(version.data.payload) !== stored) result.mismatches.push({ streamId: recorded.streamId, revision: recorded.revision });
      }
    }
    after = page[page.length - 1]!.position;
  }
}
