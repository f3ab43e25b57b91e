#!/usr/bin/env node
// What metrics cost (issue 37, target ≤ 3 %): the same build started twice, with METRICS_PORT and
// without, driven alternately with autocannon on the bench's paths (create, replace with a changed
// body, GET API, GET page), `--rounds` rounds each in swapped order; prints req/s and the ratio.
// Usage: npm run build && node test/bench/metricsOverhead.mjs [--seconds 5] [--rounds 4] [--smoke]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from './autocannon.mjs';
import { startBenchServer } from './benchServer.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    smoke: { type: 'boolean', default: false },
    server: { type: 'string' },
  },
});
const seconds = values.smoke ? 1 : Number(values.seconds);
const rounds = values.smoke ? 1 : Number(values.rounds);
const fixture = execFileSync(process.execPath, [fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url)), '--seed', '3'], {
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});

const plain = await startBenchServer({ script: values.server, name: 'nometrics' });
const metered = await startBenchServer({ script: values.server, name: 'metrics', env: { METRICS_PORT: String(9400 + Math.floor(Math.random() * 500)) } });
const servers = { 'without metrics': plain, 'with metrics': metered };
for (const server of Object.values(servers)) {
  const res = await fetch(`${server.base}/api/matches/get-1`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: fixture });
  if (!res.ok) throw new Error(`seed: ${res.status}`);
  await fetch(`${server.base}/match/get-1`);
}

let created = 0;
const PATHS = {
  'POST create': (base) => ({
    url: `${base}/api/matches`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: fixture.replace('{', `{"id":"c-${(created += 1)}-${process.pid}",`) }) }],
  }),
  'PUT replace, changed body': (base) => ({
    url: `${base}/api/matches/get-1`,
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: fixture.replace('{', `{"round":${(created += 1)},`) }) }],
  }),
  'GET /api/matches/:id': (base) => ({ url: `${base}/api/matches/get-1` }),
  'GET /match/:id': (base) => ({ url: `${base}/match/get-1`, headers: { 'accept-encoding': 'br, gzip' } }),
};

const run = (options) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: 10, duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result))),
  );

const rows = [];
let failed = false;
for (const [path, make] of Object.entries(PATHS)) {
  const totals = { 'without metrics': 0, 'with metrics': 0 };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['without metrics', 'with metrics'] : ['with metrics', 'without metrics'];
    for (const name of order) {
      const result = await run(make(servers[name].base));
      if (result.non2xx > 0 || result.errors > 0) {
        console.error(`${path} (${name}): ${result.non2xx} answers outside 2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`);
        failed = true;
      }
      totals[name] += result.requests.total;
    }
  }
  const ratio = totals['with metrics'] / totals['without metrics'];
  rows.push(
    `| ${path} | ${Math.round(totals['without metrics'] / (rounds * seconds))} | ` +
      `${Math.round(totals['with metrics'] / (rounds * seconds))} | ${ratio.toFixed(3)} | ${((1 - ratio) * 100).toFixed(1)} % |`,
  );
}
await plain.stop();
await metered.stop();
console.log('| path | req/s without metrics | req/s with METRICS_PORT | ratio | overhead |\n|---|---:|---:|---:|---:|');
console.log(rows.join('\n'));
if (failed) process.exitCode = 1;
