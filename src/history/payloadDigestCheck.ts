import { decodeMatchEvent } from '../domain/matchEvents.js';
import { payloadDigest, saltedPayloadSha256 } from '../domain/payloadDigest.js';
import type { EventStore, Position } from '../eventstore/eventStore.js';

export interface PayloadDigestCheck {
  /** Versions stored with a digest, all checked. */
  checked: number;
  /** Versions stored before digests were kept: nothing to check them against. */
  undigested: number;
  /** Versions whose payload was erased: their salted digest stays, with nothing left to check. */
  erased: number;
  /** Versions whose text no longer gives the digest stored with it: the log was edited. */
  mismatches: { streamId: string; revision: number }[];
}

/**
 * Reads the whole log and checks every match version's payload against its stored digest: the
 * salted one in its metadata (SHA-256 of the salt in its data and the payload), or for versions
 * stored before salts, the unsalted one beside the payload.
 */
export async function checkPayloadDigests(eventStore: EventStore, pageSize = 500): Promise<PayloadDigestCheck> {
  const result: PayloadDigestCheck = { checked: 0, undigested: 0, erased: 0, mismatches: [] };
  let after: Position | null = null;
  for (;;) {
    const page = await eventStore.readAll({ after, maxCount: pageSize });
    if (page.length === 0) return result;
    for (const recorded of page) {
      if (recorded.erased) {
        if (recorded.type === 'MatchCreated' || recorded.type === 'MatchReplaced') result.erased += 1;
        continue;
      }
      const version = decodeMatchEvent(recorded.type, recorded.data);
      if (version === null) continue;
      const { payloadSalt, payloadDigest: unsalted, payload } = version.data;
      const salted = recorded.metadata.payloadSha256;
      if (payloadSalt === undefined && unsalted === undefined) {
        result.undigested += 1;
        continue;
      }
      result.checked += 1;
      const matches =
        payloadSalt !== undefined
          ? salted !== undefined && saltedPayloadSha256(Buffer.from(payloadSalt, 'base64'), payload) === salted
          : payloadDigest(payload) === unsalted;
      if (!matches) result.mismatches.push({ streamId: recorded.streamId, revision: recorded.revision });
    }
    after = page[page.length - 1]!.position;
  }
}
