#!/usr/bin/env node
// Memory under many large concurrent uploads (issue 10): peak RSS of the server (VmHWM) while
// N clients each upload a ~4 MiB JSON match at once, and /healthz latency meanwhile.
// Any upload answered outside 2xx/3xx is counted in `statuses`, printed and fails the run.
// Usage: npm run build && node test/bench/uploadMemory.mjs [--clients 200] [--server dist/src/bin/server.js] [--smoke] [-- ENV=value ...]
//   --smoke: 4 clients of 256 KiB, nothing checked but the answers (npm test runs it).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startBenchServer } from './benchServer.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    clients: { type: 'string', default: '200' },
    server: { type: 'string' },
    bytes: { type: 'string', default: String(3.75 * 1024 * 1024) },
    smoke: { type: 'boolean', default: false },
  },
});
const extraEnv = Object.fromEntries(positionals.map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
const clients = values.smoke ? 4 : Number(values.clients);
const bodyBytes = values.smoke ? 256 * 1024 : Number(values.bytes);

/** A match-shaped body of about `bytes`: many actions, a few keys each. */
function body(id, bytes) {
  const action = (i) => ({ t: i, team: i % 2 ? 'home' : 'away', player: `player-${i % 14}`, kind: 'attack-kill', note: 'x'.repeat(60) });
  const one = JSON.stringify(action(0)).length + 1;
  return JSON.stringify({
    id,
    home: { name: 'Lakeside' },
    away: { name: 'Hillcrest' },
    actions: Array.from({ length: Math.floor(bytes / one) }, (_, i) => action(i)),
  });
}

const { server, base, stop } = await startBenchServer({ script: values.server, name: 'mem', env: extraEnv });
const vm = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const rssBefore = vm('VmRSS');

const payloads = Array.from({ length: clients }, (_, i) => body(`mem-${i}`, bodyBytes));
const health = [];
let attacking = true;
const probe = (async () => {
  while (attacking) {
    const started = performance.now();
    try {
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) });
      health.push(performance.now() - started);
    } catch {
      health.push(Infinity);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const started = performance.now();
const statuses = await Promise.all(
  payloads.map((payload, i) =>
    fetch(`${base}/api/matches/mem-${i}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: payload })
      .then((res) => res.status)
      .catch((error) => error.cause?.code ?? 'error'),
  ),
);
const elapsed = performance.now() - started;
attacking = false;
await probe;
const peak = vm('VmHWM');
await stop();

const counts = {};
for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
health.sort((a, b) => a - b);
const pct = (p) => health[Math.min(health.length - 1, Math.floor(p * health.length))]?.toFixed(0);
console.log(
  JSON.stringify({
    server: values.server ?? 'dist/src/bin/server.js',
    env: extraEnv,
    clients,
    bodyMiB: +(payloads[0].length / 1048576).toFixed(2),
    seconds: +(elapsed / 1000).toFixed(1),
    statuses: counts,
    rssBeforeMiB: Math.round(rssBefore),
    peakRssMiB: Math.round(peak),
    healthzMs: { samples: health.length, p50: pct(0.5), max: pct(1) },
  }),
);
const outside = statuses.filter((status) => !(typeof status === 'number' && status >= 200 && status < 400));
if (outside.length > 0) {
  console.error(`${outside.length} of ${clients} uploads (PUT /api/matches/mem-N) answered outside 2xx/3xx: ${JSON.stringify(counts)}`);
  process.exitCode = 1;
}
