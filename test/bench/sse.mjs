#!/usr/bin/env node
// Live page benchmark. 1) SSE fan-out: N open viewers of one match on one API process
// (embedded default), one re-upload; time until every viewer has the new revision, and the
// server's RSS. 2) Page render throughput: the cached page over HTTP against GET /healthz
// (baseline, same run), and uncached renders in-process (read + render + bytes).
// Any answer outside 2xx/3xx is printed and fails the run, never timed.
// Usage: npm run bench:sse [-- --viewers 1000 --duration 5] [--smoke]
//   --smoke: 20 viewers, one second a measure, targets unchecked (npm test runs it).
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from './autocannon.mjs';
import { load, serverArgs } from './build.mjs';

const { values } = parseArgs({
  options: { viewers: { type: 'string', default: '1000' }, duration: { type: 'string', default: '5' }, smoke: { type: 'boolean', default: false } },
});
const viewers = values.smoke ? 20 : Number(values.viewers);
const duration = values.smoke ? 1 : Number(values.duration);
/** Answers outside 2xx/3xx: printed at the end, and the run fails. */
const refused = [];
const expectOk = async (what, response) => {
  if (response.status < 200 || response.status >= 400) refused.push(`${what} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  else await response.text();
};
const root = fileURLToPath(new URL('../..', import.meta.url));
const generator = join(root, 'test/fixtures/generate.mjs');

async function run(cmd, args) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout) out += chunk;
  return out;
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const fixture = JSON.parse(await run(process.execPath, [generator, '--seed', '1']));
const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-bench-sse-'));
const port = 3990 + Math.floor(Math.random() * 9);
const logFile = openSync(join(dataDir, 'server.log'), 'w');
const server = spawn(process.execPath, serverArgs(), {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off' },
  stdio: ['ignore', logFile, logFile],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i += 1) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}
const json = { 'content-type': 'application/json' };
const id = 'bench-live';
await expectOk('POST /api/matches', await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ ...fixture, id }) }));
const rssBefore = rssMb(server.pid);

// 1. Fan-out.
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const seen = new Array(viewers).fill(-1);
const requests = [];
await Promise.all(
  Array.from(
    { length: viewers },
    (_, i) =>
      new Promise((resolve, reject) => {
        const req = http.get(`${base}/match/${id}/live`, { agent }, (res) => {
          if (res.statusCode !== 200) refused.push(`GET /match/${id}/live (viewer ${i}) answered ${res.statusCode}`);
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            for (const m of chunk.matchAll(/^id: (\d+)$/gm)) seen[i] = Math.max(seen[i], Number(m[1]));
          });
          resolve();
        });
        req.on('error', reject);
        requests.push(req);
      }),
  ),
);
await new Promise((r) => setTimeout(r, 500));
const connected = seen.filter((r) => r === 0).length;
const rssOpen = rssMb(server.pid);
const started = performance.now();
const put = await fetch(`${base}/api/matches/${id}`, {
  method: 'PUT',
  headers: json,
  body: JSON.stringify({ ...fixture, id, homeTeam: { ...fixture.homeTeam, setsWon: 9 } }),
});
await expectOk(`PUT /api/matches/${id}`, put);
const acked = performance.now() - started;
let allAt = null;
while (performance.now() - started < 10_000) {
  if (seen.every((r) => r >= 1)) {
    allAt = performance.now() - started;
    break;
  }
  await new Promise((r) => setTimeout(r, 5));
}
const rssAfter = rssMb(server.pid);
const got = seen.filter((r) => r >= 1).length;
for (const req of requests) req.destroy();

// 2. Page throughput: cached page and baseline over HTTP.
const measure = async (path) => {
  const result = await autocannon({ url: `${base}${path}`, connections: 10, duration, headers: { 'accept-encoding': 'br, gzip' } });
  if (result.non2xx > result['3xx'] || result.errors > 0 || result.timeouts > 0)
    refused.push(`GET ${path}: ${result['4xx']} answered 4xx, ${result['5xx']} 5xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return result.requests.average;
};
const healthz = await measure('/healthz');
const cached = await measure(`/match/${id}`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));

// Uncached: what a new revision costs once (read the document and its payload, parse, summarise, render, bytes).
const { openEngine } = await load('src/runtime/engine.js');
const { loadConfig } = await load('src/runtime/config.js');
const { readPublicMatch } = await load('projections/publicView.js');
const { summarizeMatch } = await load('src/domain/matchPayload.js');
const { renderMatchPage } = await load('src/http/public/views/matchPage.js');
const engine = await openEngine(loadConfig({ DATA_DIR: dataDir, RUN_PROJECTIONS: 'no' }), { info() {}, error() {} });
let renders = 0;
let bytes = 0;
const until = performance.now() + duration * 1000;
while (performance.now() < until) {
  const d = await readPublicMatch(engine.readModel, engine.eventStore, id);
  const page = renderMatchPage({
    id,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    versions: d.versions,
    protected: d.protected,
    revision: d.revision,
    publicUrl: `http://localhost/match/${id}`,
    summary: summarizeMatch(JSON.parse(d.payload)),
  });
  bytes = Buffer.byteLength(page);
  renders += 1;
}
await engine.close();
rmSync(dataDir, { recursive: true, force: true });

const f = (n) => n.toFixed(0);
console.log(`SSE fan-out, ${viewers} viewers of one match on one API process (embedded SQLite, projections in process):`);
console.log(`  connected with revision 0: ${connected}/${viewers}`);
console.log(
  `  re-upload answered in ${f(acked)} ms; ` +
    `every viewer had revision 1 after ${allAt === null ? `NOT within 10 s (${got}/${viewers})` : `${f(allAt)} ms`} (target ≤ 2000 ms)`,
);
console.log(`  server RSS: ${f(rssBefore)} MB idle, ${f(rssOpen)} MB with ${viewers} streams open, ${f(rssAfter)} MB after the fan-out (target ≤ 300 MB)`);
console.log(
  `Page throughput (${Math.round(Buffer.byteLength(JSON.stringify(fixture)) / 1024)} KB volleyball payload, ` +
    `page ${Math.round(bytes / 1024)} KB, ${duration} s each, 10 connections):`,
);
console.log(`  GET /healthz (baseline)         ${f(healthz)} req/s`);
console.log(`  GET /match/:id (cached bytes)   ${f(cached)} req/s  (${(cached / healthz).toFixed(2)} × baseline)`);
console.log(
  `  uncached render, in process     ${(renders / duration).toFixed(0)} pages/s ` +
    `(read + parse + summarise + render; ${((1000 * duration) / renders).toFixed(1)} ms each)`,
);
if (refused.length > 0 || got < viewers) {
  console.error(
    `\nanswers outside 2xx/3xx (not timed as successes):\n${refused.map((line) => `- ${line}`).join('\n')}` +
      `${got < viewers ? `\n- ${viewers - got} viewer(s) never had revision 1` : ''}`,
  );
  process.exitCode = 1;
}
