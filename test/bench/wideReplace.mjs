// What one replace of a wide match costs: a payload of ~290,000 top-level keys (3.2 MB) is
// created, then replaced ROUNDS times with every key's value changed, over a real server; prints
// each replace's wall time and the matchHistory diff alone (diffBases) on the same two versions.
// Usage: npm run build && node test/bench/wideReplace.mjs [keys] [rounds]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchServer } from './benchServer.mjs';

const keys = Number(process.argv[2] ?? 290_000);
const rounds = Number(process.argv[3] ?? 5);
const wide = (round) => {
  const payload = { sport: 'volleyball', homeTeam: { name: 'A', setsWon: round }, awayTeam: { name: 'B', setsWon: 0 } };
  for (let i = 0; i < keys; i += 1) payload[`k${i}`] = round;
  return JSON.stringify(payload);
};

const { diffBasis, diffBases } = await import('../../dist/src/domain/matchDiff.js');
const a = diffBasis(JSON.parse(wide(0)));
const b = diffBasis(JSON.parse(wide(1)));
const diffTimes = [];
for (let i = 0; i < rounds; i += 1) {
  const start = performance.now();
  diffBases(a, b);
  diffTimes.push(performance.now() - start);
}
console.log(`keys ${keys}, body ${(wide(0).length / 1e6).toFixed(2)} MB`);
console.log(`diffBases: ${diffTimes.map((t) => t.toFixed(0)).join(' ')} ms`);

const { base, stop, dataDir } = await startBenchServer({ name: 'wide-replace', script: process.env.BENCH_SERVER_SCRIPT, env: { MAX_EVENT_LOOP_DELAY_MS: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' } });
try {
  const headers = { 'content-type': 'application/json', 'x-write-token': 'bench-wide-replace-token' };
  // Bodies made before the first request: a client busy longer than the keep-alive timeout (5 s) would meet a closed connection.
  const bodies = Array.from({ length: rounds + 1 }, (_, round) => `{"id":"wide",${wide(round).slice(1)}`);
  const created = await fetch(`${base}/api/matches`, { method: 'POST', headers, body: bodies[0] });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const times = [];
  for (let round = 1; round <= rounds; round += 1) {
    const start = performance.now();
    const res = await fetch(`${base}/api/matches/wide`, { method: 'PUT', headers, body: bodies[round] });
    await res.text();
    times.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`replace: ${res.status}`);
  }
  console.log(`replace (PUT, waits for the history entry): ${times.map((t) => t.toFixed(0)).join(' ')} ms`);
} finally {
  if (process.env.BENCH_KEEP) console.log(readFileSync(`${dataDir}/server.log`, 'utf8').slice(-3000));
  await stop();
}
