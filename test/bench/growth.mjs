#!/usr/bin/env node
// Growth (issue 34): the write and read rates through the HTTP API with 10,000 and then 100,000
// matches already stored, each against an empty store measured in the same minute (two servers
// up at once, driven alternately, as `npm run bench` does against its baseline). The stored
// matches are generated ones (volleyball and basketball, 40 distinct payloads under their own
// ids) appended straight to the event store in batches while the grown server is down; it then
// catches its read models up by itself at start. The empty store holds only what the bench
// writes. Reads go to a fixed number of ids spread over the whole store, holding the same payloads
// as the empty store's read set, warmed once, so both servers' caches hold the same share and what
// differs is the size of the store under them.
// Writes: POST create of a new 87 KB match, and POST replace of a live match (one more rally each,
// one match per connection). Any answer outside 2xx/3xx is printed and fails the run.
//
// Usage: npm run bench:growth [-- --sizes 10000,100000 --duration 3 --rounds 4 --connections 10 --reads 500] [--smoke]
//   --smoke: 200 stored matches, one-second runs, nothing checked but the answers (npm test runs it).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { inTurn } from './autocannon.mjs';
import { benchPort, load, serverArgs } from './build.mjs';
import { fullMatches, liveVersions } from '../fixtures/liveMatch.mjs';
import { generatePayloads, seedMatches } from './seed.mjs';
import { diskBytes } from './diskBytes.mjs';
import { untilAnswering } from './untilAnswering.mjs';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    reads: { type: 'string', default: '500' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = opts.smoke;
const sizes = smoke ? [200] : opts.sizes.split(',').map(Number);
const duration = smoke ? 1 : Number(opts.duration);
const rounds = smoke ? 1 : Number(opts.rounds);
const connections = smoke ? 2 : Number(opts.connections);
const readIds = smoke ? 20 : Number(opts.reads);
const TOLERANCE = 0.1;
const progress = (line) => process.stderr.write(`[growth] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');

async function startServer(name, dataDir, logDir) {
  const port = benchPort();
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, serverArgs(), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off' },
    stdio: ['ignore', log, log],
  });
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // Ready: every projection caught up with the log (the grown store's, seeded while it was down).
  await untilAnswering(`${base}/readyz`, {
    child,
    what: `${name} (log: ${join(logDir, `${name}.log`)})`,
    // A grown store's read models catch up at start: up to an hour for 100,000 matches.
    deadlineMs: 3_600_000,
    ready: async (res) => res.ok && (await res.json()).projections.every((p) => p.lag === 0),
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { name, base, stop, readySeconds: (performance.now() - started) / 1000 };
}

const outside = [];
async function run(server, path, options) {
  const result = await autocannon({ url: `${server.base}${options.path ?? ''}`, connections, duration, ...options });
  const bad = result['1xx'] + result['4xx'] + result['5xx'];
  if (bad > 0 || result.errors > 0 || result.timeouts > 0)
    outside.push(`${server.name}: ${path}: ${result['4xx']} answered 4xx, ${result['5xx']} 5xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const live = fullMatches(4);
const createBody = JSON.stringify(live[0]);
/** Uploads of every live match after its first: the fewest rallies of the four (version(k) stops at a match's last). */
const liveRallies = Math.min(...live.map((full) => liveVersions(full, '').rallies));
const BROWSER = { accept: 'text/html', 'accept-encoding': 'br, gzip' };
let counter = 0;

/** The four paths, each a function of a server and the ids its reads go to. */
const PATHS = {
  'POST create (new 87 KB match)': (server) =>
    run(server, 'POST /api/matches (create)', {
      path: '/api/matches',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: `{"id":"growth-${process.pid}-${(counter += 1)}",${createBody.slice(1)}` }) }],
    }),
  'POST replace (a live match, one more rally)': (server) =>
    run(server, 'POST /api/matches (replace, next rally)', {
      path: '/api/matches',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: inTurn(
        liveRallies + 1,
        () => liveVersions(live[(counter += 1) % live.length], `growth-live-${process.pid}-${counter}`),
        (request, match, rally) => ({ ...request, body: match.version(rally) }),
      ),
    }),
  'GET /api/matches/:id (stored matches)': (server, ids) =>
    run(server, 'GET /api/matches/:id', {
      requests: [{ setupRequest: (request) => ({ ...request, path: `/api/matches/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
    }),
  'GET /match/:id (page, stored matches)': (server, ids) =>
    run(server, 'GET /match/:id', {
      headers: BROWSER,
      requests: [{ setupRequest: (request) => ({ ...request, path: `/match/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
    }),
};

/**
 * `count` ids spread evenly over bench-000000 … bench-(stored-1), the k-th holding payload k mod
 * `distinct` (seedMatches gives match i payload i mod distinct), as the empty store's k-th read
 * does: both read sets render the same payloads. (Until session 30 the spread's step, a multiple
 * of 20, picked one or two volleyball payloads for the grown store against all 40 for the empty.)
 */
function spread(stored, count, distinct) {
  const n = Math.min(count, stored);
  return Array.from({ length: n }, (_, k) => {
    const near = Math.floor((k * stored) / n);
    const at = near - (near % distinct) + (k % distinct);
    return `bench-${String(at < stored ? at : at - distinct).padStart(6, '0')}`;
  });
}

/** One request of the set-up (not timed): sent again after the Retry-After of a 503 (the server shedding load), a few times. */
async function setUp(server, path, init = {}) {
  for (let attempt = 1; ; attempt += 1) {
    const res = await fetch(`${server.base}${path}`, init);
    await res.arrayBuffer();
    if (res.status === 503 && attempt < 5) await sleep(Number(res.headers.get('retry-after') ?? 2) * 1000);
    else return res.ok || outside.push(`${server.name}: ${init.method ?? 'GET'} ${path} (set-up, attempt ${attempt}) answered ${res.status}`);
  }
}

async function warm(server, ids) {
  for (let i = 0; i < ids.length; i += 20) {
    await Promise.all(ids.slice(i, i + 20).flatMap((id) => [`/api/matches/${id}`, `/match/${id}`].map((path) => setUp(server, path, { headers: BROWSER }))));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'matchlog-growth-'));
const grownDir = join(dir, 'grown');
mkdirSync(grownDir);
const rows = [];
const header =
  `node ${process.version}, ${connections} connections, ${duration} s a path, ${rounds} round(s) alternating empty and grown, ` +
  `WRITE_RATE_LIMIT=off, load average before ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
try {
  const payloads = generatePayloads(smoke ? 4 : 40);
  let stored = 0;
  for (const size of sizes) {
    // Grow the store while its server is down: straight into the log, in batches sharing fsyncs.
    const seededAt = performance.now();
    const eventStore = openSqliteEventStore(join(grownDir, 'events.sqlite'));
    await seedMatches(eventStore, { count: size, first: stored, payloads });
    await eventStore.close();
    const seedSeconds = (performance.now() - seededAt) / 1000;
    stored = size;
    progress(`${size} matches stored (seeded in ${seedSeconds.toFixed(0)} s); starting both servers`);
    const emptyDir = join(dir, `empty-${size}`);
    mkdirSync(emptyDir);
    const grown = await startServer(`grown-${size}`, grownDir, dir);
    const empty = await startServer(`empty-${size}`, emptyDir, dir);
    progress(`grown server ready in ${grown.readySeconds.toFixed(0)} s (its read models caught up)`);
    try {
      // The empty store's reads go to matches it holds: a few it is given now, the same count.
      const emptyIds = Array.from({ length: Math.min(readIds, size) }, (_, i) => `bench-e${i}`);
      for (let i = 0; i < emptyIds.length; i += 20) {
        await Promise.all(
          emptyIds.slice(i, i + 20).map((id, k) =>
            setUp(empty, '/api/matches', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ ...payloads[(i + k) % payloads.length], id }),
            }),
          ),
        );
      }
      const grownIds = spread(size, readIds, payloads.length);
      await warm(empty, emptyIds);
      await warm(grown, grownIds);
      const rates = {};
      for (const [name, measure] of Object.entries(PATHS)) {
        const runs = { empty: [], grown: [] };
        for (let round = 0; round < rounds; round += 1) {
          const order = round % 2 === 0 ? ['empty', 'grown'] : ['grown', 'empty'];
          for (const which of order) runs[which].push(await measure(which === 'empty' ? empty : grown, which === 'empty' ? emptyIds : grownIds));
        }
        const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
        rates[name] = {
          empty: mean(runs.empty, 'rps'),
          grown: mean(runs.grown, 'rps'),
          // Each round's grown rate over the empty store's in the same round: how far one round strays.
          roundRatios: runs.grown.map((r, i) => r.rps / runs.empty[i].rps),
          emptyP99: Math.max(...runs.empty.map((r) => r.p99)),
          grownP99: Math.max(...runs.grown.map((r) => r.p99)),
        };
        progress(
          `${size}: ${name}: ${rates[name].grown.toFixed(0)} vs ${rates[name].empty.toFixed(0)} req/s ` +
            `(rounds ${rates[name].roundRatios.map((r) => r.toFixed(2)).join(', ')})`,
        );
      }
      rows.push({ size, rates, disk: diskBytes(grownDir), seedSeconds, readySeconds: grown.readySeconds });
    } finally {
      await grown.stop();
      await empty.stop();
      rmSync(emptyDir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(header);
console.log(`\n| path | ${rows.map((r) => `${r.size} stored: req/s (empty store's), ratio`).join(' | ')} |`);
console.log(`|---|${rows.map(() => '---:').join('|')}|`);
const missed = [];
for (const name of Object.keys(PATHS)) {
  const cells = rows.map((r) => {
    const { empty, grown, emptyP99, grownP99, roundRatios } = r.rates[name];
    const ratio = grown / empty;
    if (ratio < 1 - TOLERANCE) missed.push(`${name} at ${r.size} stored: ${ratio.toFixed(2)}× the empty store's`);
    const rounds = `rounds ${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}`;
    return `${grown.toFixed(0)} (${empty.toFixed(0)}), **${ratio.toFixed(2)}×** (${rounds}); p99 ${grownP99} (${emptyP99}) ms`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
console.log(`| store on disk (log + read models) | ${rows.map((r) => `${(r.disk / 1e9).toFixed(2)} GB`).join(' | ')} |`);
console.log(
  `| seeding (log appends) / read models caught up at start | ` +
    `${rows.map((r) => `${r.seedSeconds.toFixed(0)} s / ${r.readySeconds.toFixed(0)} s`).join(' | ')} |`,
);
if (outside.length > 0) {
  console.error(`\nanswers outside 2xx/3xx (not timed as successes):\n${outside.map((line) => `- ${line}`).join('\n')}`);
  process.exitCode = 1;
}
if (!smoke && missed.length > 0) {
  console.error(`\n${missed.length} rate(s) more than ${TOLERANCE * 100} % below the empty store's:\n${missed.map((line) => `- ${line}`).join('\n')}`);
  process.exitCode = 1;
}
