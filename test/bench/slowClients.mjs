#!/usr/bin/env node
// /healthz latency while many clients send headers and then drip their bodies (issue 10,
// defect 4), and how long until the server has cut every one off.
// Usage: npm run build && node test/bench/slowClients.mjs [--server dist/src/bin/server.js] [--clients 500] [--seconds 20] [-- ENV=value ...]
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { startBenchServer } from './benchServer.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { server: { type: 'string' }, clients: { type: 'string', default: '500' }, seconds: { type: 'string', default: '20' } },
});
const extraEnv = Object.fromEntries(positionals.map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
const { port, base, stop } = await startBenchServer({ script: values.server, name: 'slow', env: extraEnv });
const started = Date.now();
let open = 0;
let lastClosedAfter = 0;
const sockets = Array.from({ length: Number(values.clients) }, (_, i) => {
  const socket = connect(port, '127.0.0.1');
  open += 1;
  socket.on('error', () => {});
  socket.on('close', () => {
    open -= 1;
    lastClosedAfter = Date.now() - started;
  });
  socket.write(`PUT /api/matches/slow-${i} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"v":"`);
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 1000);
  return { socket, timer };
});
const health = [];
while (Date.now() - started < Number(values.seconds) * 1000) {
  const t0 = performance.now();
  await fetch(`${base}/healthz`);
  health.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 100));
}
const stillOpen = open;
for (const { socket, timer } of sockets) {
  clearInterval(timer);
  socket.destroy();
}
await stop();
health.sort((a, b) => a - b);
const pct = (p) => Math.round(health[Math.min(health.length - 1, Math.floor(p * health.length))]);
console.log(
  JSON.stringify({
    server: values.server ?? 'dist/src/bin/server.js',
    env: extraEnv,
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    stillOpenAtEnd: stillOpen,
    lastCutOffAfterMs: stillOpen === 0 ? lastClosedAfter : null,
    healthz: { samples: health.length, p50: pct(0.5), p99: pct(0.99), max: pct(1) },
  }),
);
