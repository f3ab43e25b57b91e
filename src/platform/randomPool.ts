import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the CSPRNG at once: a call into it per value cost more than the value (as randomUUID pools its own). */
const POOL_BYTES = 4096;

const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` fresh random bytes (at most POOL_BYTES) as base64, from a pool refilled by crypto.randomFillSync; none is handed out twice. */
export function randomBase64(bytes: number): string {
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const text = pool.toString('base64', used, used + bytes);
  used += bytes;
  return text;
}
