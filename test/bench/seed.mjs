// Seeds a log with generated matches, straight through the event store (no HTTP), for the
// projection and rebuild benchmarks. Payloads come from the shared deterministic generator:
// `distinct` different matches, re-used under different ids to reach `count`.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { encodeMatchEvent } from '../../dist/src/domain/matchEvents.js';

const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));

export function generatePayloads(distinct = 40) {
  return Array.from({ length: distinct }, (_, i) =>
    JSON.parse(execFileSync(process.execPath, [generator, '--sport', i % 2 ? 'basketball' : 'volleyball', '--seed', String(i + 1)], { encoding: 'utf8', maxBuffer: 1 << 26 })),
  );
}

/**
 * Appends one MatchCreated per match and, with `versions` > 1, that many uploads in all (the
 * later ones MatchReplaced, as a live-scoring app re-uploads), `parallel` appends at a time
 * (they share fsyncs).
 */
export async function seedMatches(eventStore, { count, payloads, versions = 1, parallel = 200 }) {
  let bytes = 0;
  for (let version = 0; version < versions; version += 1) {
    for (let start = 0; start < count; start += parallel) {
      const appends = [];
      for (let i = start; i < Math.min(count, start + parallel); i += 1) {
        const matchId = `bench-${String(i).padStart(6, '0')}`;
        const payload = JSON.stringify({ ...payloads[(i + version) % payloads.length], id: matchId });
        bytes += payload.length;
        const event =
          version === 0
            ? { type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: 'POST', payload } }
            : { type: 'MatchReplaced', data: { matchId, replacedVia: 'PUT', payload } };
        const recorded = { id: randomUUID(), type: event.type, data: encodeMatchEvent(event), metadata: { schemaVersion: 1 } };
        appends.push(eventStore.appendToStream(`match-${matchId}`, [recorded], version === 0 ? 'no_stream' : version - 1));
      }
      await Promise.all(appends);
    }
  }
  return { bytes };
}
