#!/usr/bin/env node
// /healthz latency while clients hammer the public history of a match with huge versions
// (issue 10, defect 3). Usage: npm run build && node test/bench/historyAttack.mjs
//   [--server dist/src/bin/server.js] [--keys 290000] [--seconds 10] [--clients 8]
import { parseArgs } from 'node:util';
import { startBenchServer } from './benchServer.mjs';

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    keys: { type: 'string', default: '290000' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
  },
});
const { base, stop } = await startBenchServer({ script: values.server, name: 'hist', env: { MAX_BODY_BYTES: String(8 * 1024 * 1024) } });
const keys = Number(values.keys);
for (let v = 0; v < 3; v += 1) {
  const payload = JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, (i + v) % 7])));
  const res = await fetch(`${base}/api/matches/wide`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: payload });
  if (!res.ok) throw new Error(`upload ${v}: ${res.status} ${await res.text()}`);
}
const health = [];
const sizes = [];
let requests = 0;
const until = Date.now() + Number(values.seconds) * 1000;
const attackers = Array.from({ length: Number(values.clients) }, async (_, c) => {
  while (Date.now() < until) {
    const text = await (await fetch(`${base}/api/matches/wide/history?limit=100&order=${c % 2 ? 'newest' : 'oldest'}`)).text();
    sizes.push(text.length);
    requests += 1;
  }
});
const probe = (async () => {
  while (Date.now() < until) {
    const started = performance.now();
    await fetch(`${base}/healthz`);
    health.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
})();
await Promise.all([...attackers, probe]);
await stop();
health.sort((a, b) => a - b);
const pct = (p) => Math.round(health[Math.min(health.length - 1, Math.floor(p * health.length))]);
console.log(
  JSON.stringify({
    server: values.server ?? 'dist/src/bin/server.js',
    keys,
    historyRequests: requests,
    maxHistoryBytes: Math.max(...sizes),
    healthz: { samples: health.length, p50: pct(0.5), p99: pct(0.99), max: pct(1) },
  }),
);
