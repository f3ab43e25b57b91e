#!/usr/bin/env node
// Ways of storing the versions of one live-scored match, measured on the real sequence
// (test/fixtures/liveMatch.mjs: 135 uploads, one more rally each, final payload ~58 KB):
// bytes per version, encode and decode µs, for each candidate. Prints a markdown table.
// Usage: node test/bench/deltaCandidates.mjs [--seed 7] [--rounds 5] [--smoke]
// (--smoke: the first 20 uploads, one round; npm test runs it so it cannot rot.)
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { applyDelta, createDelta } from 'fossil-delta';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '7' }, rounds: { type: 'string', default: '5' }, smoke: { type: 'boolean', default: false } },
});
const rounds = values.smoke ? 1 : Number(values.rounds);

const uploads = liveMatchUploads({ seed: Number(values.seed) }).slice(0, values.smoke ? 20 : undefined);
// Stored as the domain stores it: the envelope with its digest, the payload spliced in last.
const versions = uploads.map((payload, i) => {
  const digest = `sha256:${createHash('sha256').update(payload).digest('base64url')}`;
  const envelope =
    i === 0
      ? { schemaVersion: 1, matchId: 'live-1', protection: 'unprotected', createdVia: 'POST', payloadDigest: digest }
      : { schemaVersion: 1, matchId: 'live-1', replacedVia: 'POST', payloadDigest: digest };
  return Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},"payload":${payload}}`);
});
const finalBytes = Buffer.byteLength(uploads.at(-1));
const wholeBytes = versions.reduce((sum, v) => sum + v.length, 0);

/** Common prefix and suffix: [prefix length varint-free header as JSON] + the middle. */
function affixDelta(base, target) {
  const max = Math.min(base.length, target.length);
  let prefix = 0;
  while (prefix < max && base[prefix] === target[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < max - prefix && base[base.length - 1 - suffix] === target[target.length - 1 - suffix]) suffix += 1;
  const header = Buffer.from(`${prefix},${suffix};`);
  return Buffer.concat([header, target.subarray(prefix, target.length - suffix)]);
}
function affixApply(base, delta) {
  const end = delta.indexOf(0x3b);
  const [prefix, suffix] = delta.subarray(0, end).toString().split(',').map(Number);
  return Buffer.concat([base.subarray(0, prefix), delta.subarray(end + 1), base.subarray(base.length - suffix)]);
}

const deflate1 = (b) => deflateRawSync(b, { level: 1 });
const deflate6 = (b) => deflateRawSync(b, { level: 6 });
const brotli = (q) => (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } });

const fossilCreate = (base, target) => Buffer.from(createDelta(base, target));
const fossilApply = (base, delta) => Buffer.from(applyDelta(base, delta));

/** One candidate: how a keyframe and a delta are made and read back. */
const candidates = [
  { name: 'whole (today)', key: (v) => v, unkey: (b) => b },
  { name: 'whole, deflate 1', key: deflate1, unkey: inflateRawSync },
  { name: 'whole, deflate 6', key: deflate6, unkey: inflateRawSync },
  { name: 'whole, brotli 1', key: brotli(1), unkey: brotliDecompressSync },
  { name: 'whole, brotli 5', key: brotli(5), unkey: brotliDecompressSync },
  { name: 'prefix/suffix delta', key: (v) => v, unkey: (b) => b, delta: affixDelta, undelta: affixApply },
  { name: 'fossil delta', key: (v) => v, unkey: (b) => b, delta: fossilCreate, undelta: fossilApply },
  {
    name: 'fossil delta, deflate 1',
    key: deflate1,
    unkey: inflateRawSync,
    delta: (a, b) => deflate1(fossilCreate(a, b)),
    undelta: (a, d) => fossilApply(a, inflateRawSync(d)),
  },
  { name: 'fossil delta, keyframes deflate 1, deltas raw', key: deflate1, unkey: inflateRawSync, delta: fossilCreate, undelta: fossilApply },
  {
    name: 'fossil delta, brotli 5',
    key: brotli(5),
    unkey: brotliDecompressSync,
    delta: (a, b) => brotli(5)(fossilCreate(a, b)),
    undelta: (a, d) => fossilApply(a, brotliDecompressSync(d)),
  },
];

function measure(candidate, K) {
  let stored = 0;
  let keyframes = 0;
  let encodeNs = 0n;
  let decodeNs = 0n;
  let maxDecodeNs = 0n;
  let chain = 0;
  for (let round = 0; round < rounds; round += 1) {
    stored = 0;
    keyframes = 0;
    encodeNs = 0n;
    decodeNs = 0n;
    chain = 0;
    let previous = null;
    for (const version of versions) {
      const start = process.hrtime.bigint();
      let record;
      if (candidate.delta && previous !== null && chain + 1 < K) {
        const delta = candidate.delta(previous, version);
        record = delta.length < version.length ? { delta } : null;
      }
      if (!record) record = { key: candidate.key(version) };
      const encoded = process.hrtime.bigint();
      const back = record.key ? candidate.unkey(record.key) : candidate.undelta(previous, record.delta);
      const decoded = process.hrtime.bigint();
      if (!back.equals(version)) throw new Error(`${candidate.name}: version not reconstructed`);
      chain = record.key ? 0 : chain + 1;
      if (record.key) keyframes += 1;
      stored += (record.key ?? record.delta).length;
      encodeNs += encoded - start;
      decodeNs += decoded - encoded;
      if (decoded - encoded > maxDecodeNs) maxDecodeNs = decoded - encoded;
      previous = version;
    }
  }
  const n = versions.length;
  return { name: candidate.name, K, stored, keyframes, perVersion: stored / n, encodeUs: Number(encodeNs) / n / 1000, decodeUs: Number(decodeNs) / n / 1000 };
}

const rows = [];
for (const candidate of candidates) {
  if (!candidate.delta) rows.push(measure(candidate, 1));
  else for (const K of [16, 32, 64, 1000]) rows.push(measure(candidate, K));
}
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(
  `${versions.length} versions (event data), the last ${fmt(versions.at(-1).length)} bytes (payload ${fmt(finalBytes)}); all whole: ${fmt(wholeBytes)} bytes\n`,
);
console.log('| candidate | K | keyframes | stored bytes | per version | × final payload | encode µs/version | decode µs/step |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.K === 1 ? '—' : r.K === 1000 ? '∞' : r.K} | ${r.keyframes} | ${fmt(r.stored)} | ${fmt(r.perVersion)} | ` +
      `${fmt(r.stored / finalBytes, 2)} | ${fmt(r.encodeUs)} | ${fmt(r.decodeUs)} |`,
  );
}
