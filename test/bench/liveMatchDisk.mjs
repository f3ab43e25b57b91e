#!/usr/bin/env node
// Disk for one live-scored match (test/fixtures/liveMatch.mjs: 135 uploads, one more rally each,
// final payload ~58 KB) in the SQLite event store, stored whole (as before) and as deltas with
// several keyframe intervals: the file after a WAL checkpoint and the sum of stored event bytes,
// against the final payload; encode cost per upload, and the cost of reading a version cold.
// Every version is read back and compared byte for byte. Also N created matches (keyframes).
// Usage: npm run bench:disk [-- --seed 7 --created 200 --smoke]
import { createHash, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { load } from './build.mjs';

const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');
const { encodeVersion } = await load('src/eventstore/storedVersions.js');

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '7' }, created: { type: 'string', default: '200' }, smoke: { type: 'boolean', default: false } },
});
const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));
const uploads = liveMatchUploads({ seed: Number(values.seed) }).slice(0, values.smoke ? 20 : undefined);
const finalBytes = Buffer.byteLength(uploads.at(-1));
const cacheBytes = 32 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'matchlog-disk-'));
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** The event data the domain appends for upload `i` (src/domain/jsonText.ts: payload spliced last). */
function eventData(payload, i, matchId) {
  const payloadDigest = `sha256:${createHash('sha256').update(payload).digest('base64url')}`;
  const envelope =
    i === 0
      ? { schemaVersion: 1, matchId, protection: 'unprotected', createdVia: 'POST', payloadDigest }
      : { schemaVersion: 1, matchId, replacedVia: 'POST', payloadDigest };
  return `${JSON.stringify(envelope).slice(0, -1)},"payload":${payload}}`;
}
const event = (data, i) => ({ id: randomUUID(), type: i === 0 ? 'MatchCreated' : 'MatchReplaced', data, metadata: { requestId: `r${i}`, schemaVersion: 1 } });

function fileBytes(file) {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const stored = db
    .prepare(
      'SELECT sum(octet_length(data)) AS bytes, count(*) AS rows, sum(encoding IS NULL) AS whole, ' +
        "sum(encoding = 'deflate') AS deflated, sum(encoding = 'delta') AS deltas FROM events",
    )
    .get();
  db.close();
  return { file: statSync(file).size, ...stored };
}

async function liveMatch(name, keyframeInterval) {
  const file = join(dir, `${name}.sqlite`);
  const deltas = { keyframeInterval, cacheBytes };
  const datas = uploads.map((payload, i) => eventData(payload, i, 'live-1'));
  const store = openSqliteEventStore(file, { deltas });
  for (let i = 0; i < datas.length; i += 1) await store.appendToStream('match-live-1', [event(datas[i], i)], i === 0 ? 'no_stream' : i - 1);
  await store.close();
  // Encoding alone, as the write path does it with the previous version at hand.
  let encodeNs = 0n;
  if (keyframeInterval > 0) {
    for (let round = 0; round < 3; round += 1) {
      encodeNs = 0n;
      let tip = null;
      for (let i = 0; i < datas.length; i += 1) {
        const start = process.hrtime.bigint();
        tip = encodeVersion(datas[i], i, tip, keyframeInterval).tip;
        encodeNs += process.hrtime.bigint() - start;
      }
    }
  }
  // Every version read back cold (a fresh store: nothing cached), one at a time, as ?revision=N does.
  const cold = openSqliteEventStore(file, { deltas });
  let readNs = 0n;
  let worstNs = 0n;
  for (let i = datas.length - 1; i >= 0; i -= 1) {
    const start = process.hrtime.bigint();
    const [read] = await cold.readStream('match-live-1', { direction: 'backwards', fromRevision: i, maxCount: 1 });
    const took = process.hrtime.bigint() - start;
    readNs += took;
    if (took > worstNs) worstNs = took;
    if (read?.data !== datas[i]) throw new Error(`${name}: revision ${i} is not what was appended`);
  }
  const all = await cold.readStream('match-live-1');
  if (all.length !== datas.length || all.some((e, i) => e.data !== datas[i])) throw new Error(`${name}: the stream read whole is not what was appended`);
  await cold.close();
  const bytes = fileBytes(file);
  return {
    name,
    keyframeInterval,
    ...bytes,
    encodeUs: Number(encodeNs) / datas.length / 1000,
    readUs: Number(readNs) / datas.length / 1000,
    worstReadUs: Number(worstNs) / 1000,
  };
}

async function createdMatches(name, keyframeInterval, count) {
  const file = join(dir, `created-${name}.sqlite`);
  const payloads = JSON.parse(execFileSync(process.execPath, [generator, '--count', String(count)], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  const store = openSqliteEventStore(file, { deltas: { keyframeInterval, cacheBytes } });
  await Promise.all(payloads.map((payload, i) => store.appendToStream(`match-c${i}`, [event(eventData(JSON.stringify(payload), 0, `c${i}`), 0)], 'no_stream')));
  await store.close();
  return { name, ...fileBytes(file) };
}

try {
  const sum = uploads.reduce((total, payload, i) => total + Buffer.byteLength(eventData(payload, i, 'live-1')), 0);
  console.log(`one live-scored match: ${uploads.length} uploads, final payload ${fmt(finalBytes)} bytes, all versions whole ${fmt(sum)} bytes\n`);
  console.log(
    '| stored as | K | rows whole / deflated / delta | stored event bytes | × final | ' +
      'SQLite file (checkpointed) | × final | encode µs/upload | cold read µs/version (worst) |',
  );
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, K] of [
    ['whole (as before)', 0],
    ['deltas', 16],
    ['deltas', 32],
    ['deltas', 64],
  ]) {
    const r = await liveMatch(`${name}-${K}`.replace(/\W+/g, '-'), K);
    console.log(
      `| ${name} | ${K || '—'} | ${r.whole} / ${r.deflated} / ${r.deltas} | ${fmt(r.bytes)} | ${fmt(r.bytes / finalBytes, 2)} | ` +
        `${fmt(r.file)} | ${fmt(r.file / finalBytes, 2)} | ${K ? fmt(r.encodeUs) : '—'} | ${fmt(r.readUs)} (${fmt(r.worstReadUs)}) |`,
    );
  }
  const count = values.smoke ? 20 : Number(values.created);
  const before = await createdMatches('whole', 0, count);
  const now = await createdMatches('deltas', 32, count);
  console.log(
    `\n${count} created matches: file ${fmt(before.file)} bytes stored whole (as before), ` +
      `${fmt(now.file)} with deltas (K 32): ${fmt(now.file / before.file, 3)}× (a create stores a keyframe as given)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
