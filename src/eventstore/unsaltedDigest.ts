import { createHash } from 'node:crypto';
import { splitPayload } from '../domain/jsonText.js';

/**
 * What the transparency log commits to for a version stored before salts: SHA-256 of its payload
 * (an empty salt); for data that is not a version, of the data itself. Written into an erased
 * version's metadata (SQLite) or beside it (EventStoreDB, ./esdbDigests.ts) before its data goes.
 */
export function unsaltedPayloadSha256(data: string): string {
  let payload: string = data;
  try {
    payload = splitPayload(data).payload;
  } catch {
    // Not a version's envelope: the data is what the leaf digests.
  }
  return createHash('sha256').update(payload).digest('hex');
}
