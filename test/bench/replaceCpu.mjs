// Server CPU per replace, one request at a time over a real server, for the three kinds of
// re-upload issue 34 names: a live match's next version (one more rally each time, the 135
// uploads of test/fixtures/liveMatch.mjs), a changed 85 KB body (generate.mjs --seed 1 with a
// counter in front), and the ~290,000-key wide payload (test/bench/wideReplace.mjs's, all values
// changed). Also the wall time until the history shows each version (a write no longer waits
// for it). Usage: npm run build && node test/bench/replaceCpu.mjs [--wide-keys 290000] [--wide-rounds 3]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { startBenchServer } from './benchServer.mjs';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';

const { values } = parseArgs({
  options: { 'wide-keys': { type: 'string', default: '290000' }, 'wide-rounds': { type: 'string', default: '3' }, changed: { type: 'string', default: '100' } },
});
const root = fileURLToPath(new URL('../..', import.meta.url));

const send = (method, url, headers, body) =>
  new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });

/** The server's CPU time so far, in ms (Linux /proc; clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** PUTs each body after the first (which creates), and answers the server CPU and wall time per replace. */
async function measure(name, id, bodies) {
  const { base, stop, server } = await startBenchServer({
    name: 'replace-cpu',
    script: process.env.BENCH_SERVER_SCRIPT,
    env: { MAX_EVENT_LOOP_DELAY_MS: '0', LOG_LEVEL: 'warn' },
  });
  try {
    const headers = { 'content-type': 'application/json' };
    const put = async (body) => {
      const answer = await send('PUT', `${base}/api/matches/${id}`, headers, body);
      if (answer.status < 200 || answer.status >= 300) throw new Error(`${name}: PUT answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    };
    await put(bodies[0]);
    const cpuStart = cpuMs(server.pid);
    const start = performance.now();
    for (const body of bodies.slice(1)) await put(body);
    const wall = performance.now() - start;
    const cpu = cpuMs(server.pid) - cpuStart;
    // The history's last entry, once it shows the last version (it may follow the write).
    const last = bodies.length - 1;
    const waitStart = performance.now();
    for (;;) {
      const answer = await send('GET', `${base}/api/matches/${id}/history?order=newest&limit=1`, {});
      if (answer.status !== 200) throw new Error(`${name}: history answered ${answer.status}`);
      if (JSON.parse(answer.text).entries?.[0]?.revision === last) break;
      if (performance.now() - waitStart > 60_000) throw new Error(`${name}: the history never showed revision ${last}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const n = bodies.length - 1;
    return { name, replaces: n, cpuMs: cpu / n, wallMs: wall / n, historyAfterMs: performance.now() - waitStart };
  } finally {
    await stop();
  }
}

const rows = [];
const live = liveMatchUploads();
rows.push(await measure('live match, one more rally each time', 'live', live));
const text = execFileSync(process.execPath, [join(root, 'test/fixtures/generate.mjs'), '--seed', '1'], { encoding: 'utf8' });
const changed = Array.from({ length: Number(values.changed) + 1 }, (_, n) => `{"rally":${n},${text.slice(1)}`);
rows.push(await measure('changed 85 KB body', 'changed', changed));
const keys = Number(values['wide-keys']);
const wide = (round) => {
  const payload = { sport: 'volleyball', homeTeam: { name: 'A', setsWon: round }, awayTeam: { name: 'B', setsWon: 0 } };
  for (let i = 0; i < keys; i += 1) payload[`k${i}`] = round;
  return JSON.stringify(payload);
};
if (Number(values['wide-rounds']) > 0)
  rows.push(
    await measure(
      `wide payload (${keys} keys, every value changed)`,
      'wide',
      Array.from({ length: Number(values['wide-rounds']) + 1 }, (_, round) => wide(round)),
    ),
  );

console.log(
  `\nnode ${process.version}, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| replace | n | server CPU ms each | wall ms each | until a history GET shows the last version |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.replaces} | ${r.cpuMs.toFixed(2)} | ${r.wallMs.toFixed(1)} | ${r.historyAfterMs.toFixed(0)} ms |`);
