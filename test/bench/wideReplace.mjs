// What one replace of a wide match costs: a payload of ~290,000 top-level keys (3.2 MB) is
// created, then replaced ROUNDS times with every key's value changed, over a real server; prints
// each replace's wall time and server CPU, and the matchHistory diff alone (diffBases) on the same two versions.
// Usage: npm run build && node test/bench/wideReplace.mjs [keys] [rounds]
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
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

const send = (method, url, headers, body) =>
  new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });

/** The server's CPU time so far, in ms (Linux /proc; clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const { base, stop, dataDir, server } = await startBenchServer({
  name: 'wide-replace',
  script: process.env.BENCH_SERVER_SCRIPT,
  env: { MAX_EVENT_LOOP_DELAY_MS: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' },
});
try {
  const headers = { 'content-type': 'application/json', 'x-write-token': 'bench-wide-replace-token' };
  // A connection per request: a server busy past its keep-alive timeout (5 s) may close a kept one under the next request.
  const bodies = Array.from({ length: rounds + 1 }, (_, round) => `{"id":"wide",${wide(round).slice(1)}`);
  const created = await send('POST', `${base}/api/matches`, headers, bodies[0]);
  if (created !== 201) throw new Error(`create: ${created}`);
  const times = [];
  const cpu = [];
  for (let round = 1; round <= rounds; round += 1) {
    const start = performance.now();
    const cpuStart = cpuMs(server.pid);
    const status = await send('PUT', `${base}/api/matches/wide`, headers, bodies[round]);
    times.push(performance.now() - start);
    cpu.push(cpuMs(server.pid) - cpuStart);
    if (status !== 200) throw new Error(`replace: ${status}`);
  }
  console.log(`replace (PUT, waits for the history entry): ${times.map((t) => t.toFixed(0)).join(' ')} ms wall, ${cpu.join(' ')} ms server CPU`);
} finally {
  if (process.env.BENCH_KEEP) console.log(readFileSync(`${dataDir}/server.log`, 'utf8').slice(-3000));
  await stop();
}
