#!/usr/bin/env node
// HTTP benchmark: requests/s and p99 latency of the main endpoints, each compared with a
// trivial route (GET /healthz) measured in the same run on the same server, so the ratios
// hold across machines. The server runs with WRITE_RATE_LIMIT=off (one address sends every
// write here); any answer outside 2xx/3xx is printed and fails the run, never timed.
// Usage: npm run bench:http [-- --duration 10 --connections 10] [--smoke]
//   --smoke: one second a path on two connections, ratios unchecked (npm test runs it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from './autocannon.mjs';
import { serverArgs } from './build.mjs';
import { fileURLToPath } from 'node:url';
import { untilAnswering } from './untilAnswering.mjs';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' }, smoke: { type: 'boolean', default: false } },
});
const duration = values.smoke ? 1 : Number(values.duration);
const connections = values.smoke ? 2 : Number(values.connections);
const root = fileURLToPath(new URL('../..', import.meta.url));
const generator = join(root, 'test/fixtures/generate.mjs');

async function run(cmd, args) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout) out += chunk;
  return out;
}

const fixture = JSON.parse(await run(process.execPath, [generator, '--seed', '1']));
const body = JSON.stringify(fixture);
const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-bench-'));
const port = 3900 + Math.floor(Math.random() * 90);
const logFile = openSync(join(dataDir, 'server.log'), 'w');
const server = spawn(process.execPath, serverArgs(), {
  env: { ...process.env, DATA_DIR: join(dataDir, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off' },
  stdio: ['ignore', logFile, logFile],
});
const base = `http://127.0.0.1:${port}`;
await untilAnswering(`${base}/healthz`, { child: server, what: `the server (log: ${join(dataDir, 'server.log')})` });

const createdAnswer = await fetch(`${base}/api/matches`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ ...fixture, id: 'bench-get' }),
});
if (!createdAnswer.ok) throw new Error(`POST /api/matches (the match the GETs read) answered ${createdAnswer.status}`);
const created = await createdAnswer.json();

/** Answers outside 2xx/3xx, and failed requests, by path: printed and failing the run. */
const refused = [];
async function measure(name, options) {
  const result = await autocannon({
    url: `${base}${options.path}`,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections,
    duration,
  });
  const outside = result['1xx'] + result['4xx'] + result['5xx'];
  if (outside > 0 || result.errors > 0 || result.timeouts > 0)
    refused.push(
      `${options.method ?? 'GET'} ${options.path} (${name}): ${result['4xx']} answered 4xx, ` +
        `${result['5xx']} 5xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return { name, rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, ok: result['2xx'] + result['3xx'] };
}

const json = { 'content-type': 'application/json' };
const rows = [];
rows.push(await measure('GET /healthz (baseline)', { path: '/healthz' }));
rows.push(
  await measure(`POST /api/matches (new ${Math.round(body.length / 1024)} KB volleyball match each)`, {
    path: '/api/matches',
    method: 'POST',
    headers: json,
    body,
  }),
);
rows.push(await measure(`PUT /api/matches/:id (same match re-uploaded)`, { path: '/api/matches/bench-put', method: 'PUT', headers: json, body }));
rows.push(await measure('GET /api/matches/:id', { path: `/api/matches/${created.id}` }));
rows.push(await measure('GET /match/:id (HTML page)', { path: `/match/${created.id}` }));

server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

const baseline = rows[0].rps;
console.log(`\n${connections} connections, ${duration} s each, node ${process.version}\n`);
console.log('| endpoint | req/s | p50 ms | p99 ms | vs baseline |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / baseline).toFixed(3)} |`);
if (refused.length > 0 || rows.some((r) => r.ok === 0)) {
  console.error(
    `\nanswers outside 2xx/3xx (not timed as successes):\n${refused.map((line) => `- ${line}`).join('\n')}${rows
      .filter((r) => r.ok === 0)
      .map((r) => `\n- ${r.name}: no answer at all`)
      .join('')}`,
  );
  process.exitCode = 1;
}
