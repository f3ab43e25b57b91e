#!/usr/bin/env node
// What one anonymous client can cost everyone else (issue 33): for each adversarial payload
// (test/fixtures/adversarial.mjs) the server CPU of each public read and of the writes, then each
// attack run for a few seconds while /healthz is probed, beside the same run's idle /healthz.
// Run it against the current build and, with --before, an older build, side by side.
//
// Usage: npm run bench:hostile [-- --before /path/to/old/dist/src/bin/server.js] [--seconds 6] [--smoke] [--only a,b]
//   --smoke: tiny sizes and one-second attacks, no targets checked (npm test runs it so it cannot rot).
//   --only: these attacks alone (e.g. liveStreams,wideReplace); the corpus is uploaded but not read.
//   --node-args: Node flags for both servers; by default those of `npm start` then BENCH_SERVER_NODE_ARGS
//                (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
//   HOSTILE_TRACE=1: each /healthz probe's time (and when its connection was made) on stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ADVERSARIAL } from '../fixtures/adversarial.mjs';
import { serverNodeArgs } from './build.mjs';

const { values: opts } = parseArgs({
  options: {
    server: { type: 'string', default: fileURLToPath(new URL('../../dist/src/bin/server.js', import.meta.url)) },
    before: { type: 'string' },
    seconds: { type: 'string', default: '6' },
    streams: { type: 'string', default: '25000' },
    fds: { type: 'string', default: '4096' },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    // Node flags for the server (the smoke test runs src/bin/server.ts with tap's TypeScript loader).
    'node-args': { type: 'string', default: serverNodeArgs().join(' ') },
  },
});
const smoke = opts.smoke;
const only = opts.only ? new Set(opts.only.split(',')) : null;
const seconds = smoke ? 1 : Number(opts.seconds);
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 10 ms (CLK_TCK 100 on Linux)
const REQUEST_TIMEOUT_MS = smoke ? 10_000 : 60_000;

/** The corpus at tiny sizes: the smoke run's, and what warms a server up before it is measured. */
const TINY = {
  wideBoxScore: { players: 20, stats: 20 },
  wideKeys: { keys: 2000 },
  manyActions: { actions: 500 },
  manyPlayers: { players: 200 },
  manyPeriods: { periods: 100 },
  longStrings: { length: 20_000 },
  deepNesting: { depth: 20 },
};
/** The corpus at bench sizes (or tiny ones for the smoke run). */
const SIZES = smoke ? TINY : {};
const corpusAt = (sizes) =>
  Object.entries(ADVERSARIAL).map(([name, make]) => ({ name, make: (extra = {}) => JSON.stringify(make({ ...sizes[name], ...extra })) }));
const corpus = corpusAt(SIZES);
/** A corpus payload's second version: its text with one more member, so a replace stores a new version. */
const secondVersion = (make) => make({ round: 1 }).replace(/}$/, ',"round":1}');

// ---- the server under test ----------------------------------------------------------------

function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function startServer(script, dataDir, state) {
  const port = 4000 + Math.floor(Math.random() * 2000);
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WRITE_RATE_LIMIT: 'off',
    TOKEN_FAILURE_LIMIT: 'off',
  };
  const child = spawn('sh', ['-c', `ulimit -n ${opts.fds}; exec "${process.execPath}" ${opts['node-args']} "${script}"`], { env, stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  const server = { child, port, base, exited: false, exitCode: null };
  child.once('exit', (code, signal) => {
    server.exited = true;
    server.exitCode = code ?? signal;
    state.exits += 1;
  });
  const sampler = setInterval(() => {
    try {
      state.peakRss = Math.max(state.peakRss, rssBytes(child.pid));
    } catch {}
  }, 100);
  child.once('exit', () => clearInterval(sampler));
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (server.exited || i > 600) throw new Error(`server ${script} did not start (exit ${server.exitCode})`);
    await sleep(100);
  }
  return server;
}

async function stopServer(server) {
  if (server.exited) return;
  server.child.kill('SIGTERM');
  await new Promise((resolve) => (server.exited ? resolve() : server.child.once('exit', resolve)));
}

// ---- requests ------------------------------------------------------------------------------

const progress = (line) => process.stderr.write(`[hostile] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request with a deadline: {status, bytes, ms}; status 0 when it failed or timed out. */
function send(server, method, path, { body, headers = {}, localAddress } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    let bytes = 0;
    const req = httpRequest(
      `${server.base}${path}`,
      { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, localAddress, agent: false },
      (res) => {
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }));
        res.on('error', () => resolve({ status: 0, bytes, ms: performance.now() - started }));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, bytes, ms: performance.now() - started, error: error.message }));
    req.end(body);
  });
}

/** A request alone on the server, with the server CPU it cost (in ms, to the 10 ms tick). */
async function measured(server, method, path, options) {
  await sleep(30);
  const before = server.exited ? 0 : cpuTicks(server.child.pid);
  const result = await send(server, method, path, options);
  await sleep(30); // work the answer left behind (the projection, a compression finished late)
  const after = server.exited ? before : cpuTicks(server.child.pid);
  return { ...result, cpuMs: (after - before) * TICK_MS };
}

/** A live stream opened, read to its first event and closed, with the server CPU it cost. */
async function measuredFirstEvent(server, id) {
  await sleep(30);
  const before = cpuTicks(server.child.pid);
  const started = performance.now();
  const result = await new Promise((resolve) => {
    const req = httpRequest(`${server.base}/match/${id}/live`, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (chunk.includes('event: revision')) {
          resolve({ status: res.statusCode, bytes, ms: performance.now() - started });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, bytes: 0, ms: performance.now() - started }));
    req.end();
  });
  await sleep(30);
  return { ...result, cpuMs: server.exited ? null : (cpuTicks(server.child.pid) - before) * TICK_MS };
}

/**
 * /healthz probed every 50 ms until `until`, from a thread of its own: the attacking loop (a wave
 * of a thousand sockets made at once) must not delay the probe's own reading of its answers.
 */
const PROBE = `
const { workerData, parentPort } = require('node:worker_threads');
const { request } = require('node:http');
const { base, until, timeoutMs, trace, started } = workerData;
const latencies = [];
const once = () => new Promise((resolve) => {
  const t0 = performance.now();
  let connectedMs = null;
  const req = request(base + '/healthz', { agent: false }, (res) => {
    res.resume();
    res.on('end', () => resolve({ ok: res.statusCode === 200, ms: performance.now() - t0, connectedMs }));
    res.on('error', () => resolve({ ok: false, ms: performance.now() - t0, connectedMs }));
  });
  req.on('socket', (socket) => socket.on('connect', () => (connectedMs = performance.now() - t0)));
  req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
  req.on('error', () => resolve({ ok: false, ms: performance.now() - t0, connectedMs }));
  req.end();
});
(async () => {
  while (Date.now() < until) {
    const { ok, ms, connectedMs } = await once();
    latencies.push(ok ? ms : timeoutMs);
    const connected = Math.round(connectedMs ?? -1);
    if (trace) process.stderr.write('healthz +' + (Date.now() - started) + ' ms: ' + Math.round(ms) + ' ms (connected after ' + connected + ' ms)\\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  parentPort.postMessage(latencies);
})();
`;

function probeHealth(server, until) {
  const worker = new Worker(PROBE, {
    eval: true,
    workerData: { base: server.base, until, timeoutMs: REQUEST_TIMEOUT_MS, trace: Boolean(process.env.HOSTILE_TRACE), started: Date.now() },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (latencies) => resolve(latencies));
    worker.once('error', reject);
  });
}

/** Runs `attack` for the bench's seconds while /healthz is probed every 50 ms. */
async function underAttack(server, attack) {
  const until = Date.now() + seconds * 1000;
  const cpuBefore = cpuTicks(server.child.pid);
  const probe = probeHealth(server, until);
  const outcome = await attack(until);
  const latencies = await probe;
  const cpuMs = server.exited ? null : (cpuTicks(server.child.pid) - cpuBefore) * TICK_MS;
  return { healthz: percentiles(latencies), cpuMs, ...outcome };
}

function percentiles(values) {
  if (values.length === 0) return { p50: null, p99: null, n: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

/** `clients` loops calling `once(i)` until the deadline; counts answers by class. */
async function loop(until, clients, once) {
  const counts = { ok: 0, refused: 0, failed: 0, ms: [] };
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; Date.now() < until; i += 1) {
        const { status, ms } = await once(c, i);
        counts.ms.push(ms);
        if (status >= 200 && status < 400) counts.ok += 1;
        else if (status === 0) counts.failed += 1;
        else counts.refused += 1;
      }
    }),
  );
  return { ...counts, ms: percentiles(counts.ms) };
}

// ---- the attacks ---------------------------------------------------------------------------

const READS = (id) => [
  ['API JSON', `/api/matches/${id}`, {}],
  ['API JSON, brotli', `/api/matches/${id}`, { headers: { 'accept-encoding': 'br' } }],
  ['API JSON ?revision=1', `/api/matches/${id}?revision=1`, {}],
  ['page', `/match/${id}`, { headers: { 'accept-encoding': 'br, gzip' } }],
  ['page ?revision=1', `/match/${id}?revision=1`, {}],
  ['embed', `/match/${id}/embed`, {}],
  ['history JSON', `/api/matches/${id}/history?limit=100`, {}],
  ['history page', `/match/${id}/history`, {}],
  ['QR code', `/match/${id}/qr.svg`, {}],
];

/**
 * Every route once, with the corpus at tiny sizes, before anything is measured: what a process
 * does once whatever the payload (each route's response serializer and validators compiled on
 * their first use, ~150 ms for the history's; the JIT's first compiles) is not any payload's
 * cost, and would otherwise land on the first payload's rows.
 */
async function warmUp(server) {
  for (const { name, make } of corpusAt(TINY)) {
    const id = `warm-${name}`;
    await send(server, 'PUT', `/api/matches/${id}`, { body: make() });
    await send(server, 'PUT', `/api/matches/${id}`, { body: secondVersion(make) });
    for (const [, path, options] of READS(id)) await send(server, 'GET', path, options);
  }
}

/** Uploads every corpus payload (create, then a replace) and reads it through every public route, cold. */
async function corpusPhase(server) {
  const rows = [];
  if (!only) {
    progress('warming up: the corpus at tiny sizes through every route');
    await warmUp(server);
  }
  for (const { name, make } of corpus) {
    progress(`${name}: upload and read`);
    const first = make();
    if (only) {
      await send(server, 'PUT', `/api/matches/${name}`, { body: first });
      continue;
    }
    const create = await measured(server, 'PUT', `/api/matches/${name}`, { body: first });
    const replace = await measured(server, 'PUT', `/api/matches/${name}`, { body: secondVersion(make) });
    rows.push({ name, kind: 'write', route: 'create', ...create }, { name, kind: 'write', route: 'replace', ...replace });
    if (server.exited) break;
    for (const [route, path, options] of READS(name)) {
      rows.push({ name, kind: 'read', route, ...(await measured(server, 'GET', path, options)) });
      if (server.exited) break;
    }
    if (server.exited) break;
    rows.push({ name, kind: 'read', route: 'live stream, first event', ...(await measuredFirstEvent(server, name)) });
  }
  return rows;
}

/** Idle live streams from `addresses` loopback addresses, attempted in waves until `--streams`. */
async function liveStreamFlood(server, addresses) {
  const target = smoke ? 200 : Number(opts.streams);
  const held = [];
  let accepted = 0;
  let refused = 0;
  const result = await underAttack(server, async (until) => {
    for (let opened = 0; opened < target && !server.exited; ) {
      const wave = Math.min(1000, target - opened);
      await Promise.all(
        Array.from(
          { length: wave },
          (_, i) =>
            new Promise((resolve) => {
              const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: `127.0.0.${2 + ((opened + i) % addresses)}` });
              let head = '';
              let settled = false;
              const done = (ok) => {
                if (settled) return;
                settled = true;
                if (ok) {
                  accepted += 1;
                  held.push(socket);
                } else {
                  refused += 1;
                  socket.destroy();
                }
                resolve();
              };
              socket.setTimeout(5000, () => done(false));
              socket.on('error', () => done(false));
              socket.on('close', () => done(false));
              socket.on('data', (chunk) => {
                if (head.length > 0) return;
                head = chunk.toString('latin1');
                socket.setTimeout(0);
                done(/^HTTP\/1\.1 200/.test(head));
              });
              socket.write(`GET /match/manyPeriods/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
            }),
        ),
      );
      opened += wave;
    }
    while (Date.now() < until) await sleep(100);
    return { attempted: target, accepted, refused };
  });
  for (const socket of held) socket.destroy();
  await sleep(500);
  return result;
}

const ATTACKS = {
  /** 8 clients read the wide box score's page, current and old revisions. */
  async boxScore(server) {
    return underAttack(server, (until) =>
      loop(until, 8, (_c, i) => send(server, 'GET', i % 3 === 0 ? '/match/wideBoxScore' : `/match/wideBoxScore?revision=${i % 2}`)),
    );
  },
  /** Idle live streams from two loopback addresses (as issue 33 found them), attempted in waves until `--streams`. */
  liveStreams: (server) => liveStreamFlood(server, 2),
  /** The same from 50 addresses: more than the server's connections; it must live, new connections are shed meanwhile. */
  liveStreamsFrom50: (server) => liveStreamFlood(server, 50),
  /** 16 sockets declare 4 MiB bodies and send a byte a second; another client keeps uploading. */
  async slowUploads(server) {
    const sockets = Array.from({ length: 16 }, (_, i) => {
      const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: `127.0.0.${100 + i}` });
      socket.on('error', () => {});
      socket.write(`PUT /api/matches/slow-${i} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n{"v":"`);
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 1000);
      return { socket, timer };
    });
    await sleep(300);
    const body = corpus.find((c) => c.name === 'manyPeriods').make();
    const result = await underAttack(server, (until) =>
      loop(until, 1, (_c, i) => send(server, 'PUT', `/api/matches/honest-${i}`, { body, localAddress: '127.0.0.200' })),
    );
    for (const { socket, timer } of sockets) {
      clearInterval(timer);
      socket.destroy();
    }
    return result;
  },
  /** One client replaces the 290,000-key match with every value changed, again and again. */
  async wideReplace(server) {
    return underAttack(server, (until) =>
      loop(until, 1, (_c, i) => send(server, 'PUT', '/api/matches/wideKeys', { body: corpus.find((c) => c.name === 'wideKeys').make({ round: i + 2 }) })),
    );
  },
  /** 8 clients read the HTML history and old revisions of the 3.2 MB match. */
  async historyPages(server) {
    return underAttack(server, (until) =>
      loop(until, 8, (c, i) => send(server, 'GET', c % 2 ? '/match/wideKeys/history' : `/match/wideKeys?revision=${i % 3}`)),
    );
  },
  /** 8 clients ask for the 3.2 MB match's JSON in brotli. */
  async brotliJson(server) {
    return underAttack(server, (until) => loop(until, 8, () => send(server, 'GET', '/api/matches/wideKeys', { headers: { 'accept-encoding': 'br' } })));
  },
  /** Pages of 24 distinct 3.6 MB matches, each read (the page cache weighs what it keeps). */
  async largePages(server) {
    const count = smoke ? 3 : 24;
    const body = corpus.find((c) => c.name === 'longStrings').make();
    for (let i = 0; i < count; i += 1) await send(server, 'PUT', `/api/matches/large-${i}`, { body });
    return underAttack(server, (until) =>
      loop(until, 4, (c, i) => send(server, 'GET', `/match/large-${(c * 7 + i) % count}${i % 2 ? '/embed' : ''}`, { headers: { 'accept-encoding': 'br' } })),
    );
  },
  /** A write's latency alone, then with 2,000 other matches each watched by a live viewer. */
  async watchedWrites(server) {
    const watched = smoke ? 20 : 2000;
    const body = (i) =>
      corpus
        .find((c) => c.name === 'manyPeriods')
        .make()
        .replace(/}$/, `,"round":${i}}`);
    for (let i = 0; i < watched; i += 1) await send(server, 'PUT', `/api/matches/watched-${i}`, { body: '{"sport":"volleyball"}' });
    const alone = await loop(Date.now() + seconds * 500, 1, (_c, i) => send(server, 'PUT', '/api/matches/writer', { body: body(i) }));
    const streams = [];
    for (let i = 0; i < watched; i += 1) {
      const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: `127.0.1.${1 + (i % 200)}` });
      socket.on('error', () => {});
      socket.write(`GET /match/watched-${i}/live HTTP/1.1\r\nHost: x\r\n\r\n`);
      streams.push(socket);
    }
    await sleep(1000);
    const result = await underAttack(server, (until) => loop(until, 1, (_c, i) => send(server, 'PUT', '/api/matches/writer', { body: body(1000 + i) })));
    for (const socket of streams) socket.destroy();
    return { ...result, writeAloneMs: alone.ms };
  },
};

// ---- one server's run ----------------------------------------------------------------------

async function runAgainst(script) {
  progress(`server ${script}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-hostile-'));
  const state = { peakRss: 0, exits: 0 };
  let server = await startServer(script, dataDir, state);
  const restartIfNeeded = async () => {
    if (server.exited) server = await startServer(script, dataDir, state);
  };
  try {
    const idle = await underAttack(server, async (until) => {
      while (Date.now() < until) await sleep(100);
      return {};
    });
    const reads = await corpusPhase(server);
    await restartIfNeeded();
    const attacks = {};
    for (const [name, attack] of Object.entries(ATTACKS)) {
      if (only && !only.has(name)) continue;
      progress(`attack ${name}`);
      const exitsBefore = state.exits;
      attacks[name] = await attack(server);
      attacks[name].exited = state.exits > exitsBefore;
      await restartIfNeeded();
    }
    return { script, idle, reads, attacks, peakRss: state.peakRss, exits: state.exits };
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the report ----------------------------------------------------------------------------

const runs = [];
if (opts.before) runs.push({ label: 'before', ...(await runAgainst(opts.before)) });
runs.push({ label: 'after', ...(await runAgainst(opts.server)) });

const fmt = (v, unit = '') => (v === null || v === undefined ? '—' : `${v}${unit}`);
const mb = (bytes) => `${Math.round(bytes / 1048576)} MB`;
const cols = runs.map((r) => r.label);
const after = runs[runs.length - 1];
const lines = [];
const verdicts = [];
const check = (ok, what) => {
  verdicts.push({ ok, what });
  return smoke ? '' : ok ? 'pass' : 'FAIL';
};

lines.push(`| payload | request | ${cols.map((c) => `${c}: status, KiB, server CPU ms`).join(' | ')} | target | |`);
lines.push(`|---|---|${cols.map(() => '---:').join('|')}|---|---|`);
for (const row of after.reads) {
  const cells = runs.map((r) => {
    const same = r.reads.find((x) => x.name === row.name && x.route === row.route);
    return same ? `${same.status}, ${Math.round(same.bytes / 1024)}, ${same.cpuMs}` : 'not reached';
  });
  const limit = row.kind === 'read' ? 50 : 100;
  const ok = row.status >= 200 && row.status < 400 && row.cpuMs <= limit;
  lines.push(
    `| ${row.name} | ${row.route} | ${cells.join(' | ')} | ≤ ${limit} ms, 2xx | ${check(ok, `${row.name} ${row.route}: ${row.cpuMs} ms, ${row.status}`)} |`,
  );
}
lines.push('');
lines.push(
  `| attack | ${cols.map((c) => `${c}: /healthz p50/p99 ms, answers ok/refused/failed, server CPU during the attack, exited`).join(' | ')} | target | |`,
);
lines.push(`|---|${cols.map(() => '---').join('|')}|---|---|`);
lines.push(`| (idle: /healthz alone) | ${runs.map((r) => `${fmt(r.idle.healthz.p50)}/${fmt(r.idle.healthz.p99)}`).join(' | ')} | | |`);
for (const name of Object.keys(after.attacks)) {
  const cells = runs.map((r) => {
    const a = r.attacks[name];
    const answers = a.ok !== undefined ? `${a.ok}/${a.refused}/${a.failed}` : `${a.accepted} accepted, ${a.refused} refused of ${a.attempted}`;
    const extra = a.writeAloneMs ? `; write p50 ${a.ms.p50} ms vs ${a.writeAloneMs.p50} ms unwatched` : a.ms ? `; answer p99 ${a.ms.p99} ms` : '';
    return `${fmt(a.healthz.p50)}/${fmt(a.healthz.p99)}, ${answers}${extra}, server CPU ${fmt(a.cpuMs, ' ms')}${a.exited ? ', **exited**' : ''}`;
  });
  const a = after.attacks[name];
  const distributed = name === 'liveStreamsFrom50';
  const ok = !a.exited && (distributed || (a.healthz.p99 !== null && a.healthz.p99 <= 100)) && (name !== 'slowUploads' || a.refused + a.failed === 0);
  const target = distributed
    ? 'no exit (more connections than MAX_CONNECTIONS: new ones are shed while it lasts)'
    : `/healthz p99 ≤ 100 ms, no exit${name === 'slowUploads' ? ', honest uploads all 2xx' : ''}`;
  lines.push(`| ${name} | ${cells.join(' | ')} | ${target} | ${check(ok, `${name}: /healthz p99 ${a.healthz.p99} ms${a.exited ? ', exited' : ''}`)} |`);
}
lines.push('');
lines.push(`| measure | ${cols.join(' | ')} | target | |`);
lines.push(`|---|${cols.map(() => '---:').join('|')}|---|---|`);
lines.push(
  `| peak RSS | ${runs.map((r) => mb(r.peakRss)).join(' | ')} | ≤ 600 MB | ${check(after.peakRss <= 600 * 1048576, `peak RSS ${mb(after.peakRss)}`)} |`,
);
lines.push(`| process exits | ${runs.map((r) => r.exits).join(' | ')} | 0 | ${check(after.exits === 0, `${after.exits} exits`)} |`);

console.log(lines.join('\n'));
const failed = verdicts.filter((v) => !v.ok);
if (smoke) {
  // The smoke run checks only that every request was answered the way a bench can time.
  const broken = after.reads.filter((r) => !(r.status >= 200 && r.status < 400));
  if (broken.length > 0 || after.exits > 0) {
    console.error(`smoke: ${broken.map((r) => `${r.name} ${r.route} answered ${r.status}`).join('; ')}${after.exits ? `; ${after.exits} exits` : ''}`);
    process.exitCode = 1;
  }
} else if (failed.length > 0) {
  console.error(`\n${failed.length} target(s) missed:\n${failed.map((v) => `- ${v.what}`).join('\n')}`);
  process.exitCode = 1;
}
