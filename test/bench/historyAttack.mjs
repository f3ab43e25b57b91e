#!/usr/bin/env node
// /healthz latency while clients hammer the public history of a match with huge versions
// (issue 10, defect 3). Usage: npm run build && node test/bench/historyAttack.mjs [--server dist/src/main.js] [--keys 290000] [--seconds 10] [--clients 8]
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { server: { type: 'string' }, keys: { type: 'string', default: '290000' }, seconds: { type: 'string', default: '10' }, clients: { type: 'string', default: '8' } } });
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = values.server ?? join(root, 'dist/src/main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-hist-'));
const port = 3700 + Math.floor(Math.random() * 90);
const log = openSync(join(dataDir, 'server.log'), 'w');
const server = spawn(process.execPath, [script], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off', MAX_BODY_BYTES: String(8 * 1024 * 1024) },
  stdio: ['ignore', log, log],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i += 1) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}
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
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
health.sort((a, b) => a - b);
const pct = (p) => Math.round(health[Math.min(health.length - 1, Math.floor(p * health.length))]);
console.log(JSON.stringify({ server: script.replace(root, ''), keys, historyRequests: requests, maxHistoryBytes: Math.max(...sizes), healthz: { samples: health.length, p50: pct(0.5), p99: pct(0.99), max: pct(1) } }));
