// Seeds a log with generated matches, straight through the event store (no HTTP), for the
// projection and rebuild benchmarks. Payloads come from the shared deterministic generator:
// `distinct` different matches, re-used under different ids to reach `count`. Also the club
// the club-sync benchmarks sync into.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cliArgs, load } from './build.mjs';

const { encodeMatchEvent } = await load('src/domain/matchEvents.js');
const { PAYLOAD_SALT_BYTES, payloadDigest, saltedVersion } = await load('src/domain/payloadDigest.js');
const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));

/**
 * A club with one team and an app key, made by `matchlog club-create` in the data folder
 * `dataDir`, and the generated volleyball payload (seed 1) that names that team.
 */
export function createBenchClub(dataDir) {
  const club = JSON.parse(
    execFileSync(
      process.execPath,
      cliArgs(
        'club-create',
        '--name',
        'Bench Club',
        '--email',
        'bench@club.test',
        '--password-env',
        'BENCH_PASSWORD',
        '--team',
        'First Team',
        '--app-key',
        '--json',
      ),
      {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dataDir, BENCH_PASSWORD: 'correct horse battery staple' },
      },
    ),
  );
  const clubText = execFileSync(process.execPath, [generator, '--seed', '1', '--club', club.clubId, '--team', club.teams[0].teamId], { encoding: 'utf8' });
  return { club, clubText };
}

export function generatePayloads(distinct = 40) {
  return Array.from({ length: distinct }, (_, i) =>
    JSON.parse(
      execFileSync(process.execPath, [generator, '--sport', i % 2 ? 'basketball' : 'volleyball', '--seed', String(i + 1)], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }),
    ),
  );
}

/**
 * Appends one MatchCreated per match (bench-<first> up to bench-<count - 1>) and, with `versions` > 1, that many uploads in all (the
 * later ones MatchReplaced, as a live-scoring app re-uploads), `parallel` appends at a time
 * (they share fsyncs).
 */
export async function seedMatches(eventStore, { count, payloads, versions = 1, parallel = 200, first = 0 }) {
  let bytes = 0;
  for (let version = 0; version < versions; version += 1) {
    for (let start = first; start < count; start += parallel) {
      const appends = [];
      for (let i = start; i < Math.min(count, start + parallel); i += 1) {
        const matchId = `bench-${String(i).padStart(6, '0')}`;
        const payload = JSON.stringify({ ...payloads[(i + version) % payloads.length], id: matchId });
        bytes += payload.length;
        appends.push(appendVersion(eventStore, matchId, version, payload));
      }
      await Promise.all(appends);
    }
  }
  return { bytes };
}

/**
 * Appends a match's `version`-th upload: MatchCreated first (by POST), then MatchReplaced (by
 * PUT), each with its digest, salt and salted digest as the write path stores them.
 */
function appendVersion(eventStore, matchId, version, payload) {
  const digests = { payloadDigest: payloadDigest(payload), ...saltedVersion(payload, randomBytes(PAYLOAD_SALT_BYTES)) };
  const event =
    version === 0
      ? { type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: 'POST', payload, ...digests } }
      : { type: 'MatchReplaced', data: { matchId, replacedVia: 'PUT', payload, ...digests } };
  const recorded = { id: randomUUID(), type: event.type, data: encodeMatchEvent(event), metadata: { schemaVersion: 1, payloadSha256: digests.payloadSha256 } };
  return eventStore.appendToStream(`match-${matchId}`, [recorded], version === 0 ? 'no_stream' : version - 1);
}

/**
 * Appends `count` live-scored matches, each every upload of `uploads` (payload texts, one more
 * rally each: test/fixtures/liveMatch.mjs) in order, as a scoring app re-uploads it; the event
 * store keeps the later ones as deltas. Matches are appended `parallel` at a time, upload by upload.
 */
export async function seedLiveMatches(eventStore, { count, uploads, parallel = 200 }) {
  let bytes = 0;
  for (const [version, text] of uploads.entries()) {
    for (let start = 0; start < count; start += parallel) {
      const appends = [];
      for (let i = start; i < Math.min(count, start + parallel); i += 1) {
        const matchId = `live-${String(i).padStart(6, '0')}`;
        const payload = `{"id":"${matchId}",${text.slice(1)}`;
        bytes += payload.length;
        appends.push(appendVersion(eventStore, matchId, version, payload));
      }
      await Promise.all(appends);
    }
  }
  return { bytes };
}
