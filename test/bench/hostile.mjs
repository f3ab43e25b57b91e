#!/usr/bin/env node
// What one anonymous client can cost everyone else (issue 33): for each adversarial payload
// (test/fixtures/adversarial.mjs) the server CPU of each public read and of the writes, then each
// attack run for a few seconds while /healthz is probed, beside the same run's idle /healthz.
// Run it against the current build and, with --before, an older build, side by side.
// The attacks run with WRITE_RATE_LIMIT and TOKEN_FAILURE_LIMIT off; the scenarios of ON_DEFAULTS
// (token guessing, a looping client and a burst behind one NAT, old revisions) on a second server
// on the service's defaults.
//
// Usage: npm run bench:hostile [-- --before /path/to/old/dist/src/bin/server.js] [--seconds 6] [--smoke] [--only a,b]
//   --smoke: tiny sizes and one-second attacks, no targets checked (npm test runs it so it cannot rot).
//   --only: these attacks alone (e.g. liveStreams,wideReplace); the corpus is uploaded but not read
//           (and not at all when only scenarios on the defaults are named).
//   --node-args: Node flags for both servers; by default those of `npm start` then BENCH_SERVER_NODE_ARGS
//                (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
//   HOSTILE_TRACE=1: each /healthz probe's time (and when its connection was made) on stderr.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ADVERSARIAL } from '../fixtures/adversarial.mjs';
import { serverNodeArgs } from './build.mjs';
import { untilAnswering } from './untilAnswering.mjs';

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

/** What an operator may set that the scenarios on the defaults must not inherit from the bench's environment. */
const LIMITS = [
  'WRITE_RATE_LIMIT',
  'TOKEN_FAILURE_LIMIT',
  'MAX_CONNECTIONS',
  'MAX_CONNECTIONS_PER_ADDRESS',
  'MAX_LIVE_STREAMS',
  'MAX_LIVE_STREAMS_PER_ADDRESS',
];

async function startServer(script, dataDir, state, limits) {
  const port = 4000 + Math.floor(Math.random() * 2000);
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  for (const name of LIMITS) delete env[name];
  Object.assign(env, limits);
  const child = spawn('sh', ['-c', `ulimit -n ${opts.fds}; exec "${process.execPath}" ${opts['node-args']} "${script}"`], { env, stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  const server = { child, port, base, exited: false, exitCode: null, stopping: false };
  child.once('exit', (code, signal) => {
    server.exited = true;
    server.exitCode = code ?? signal;
    if (!server.stopping) state.exits += 1;
  });
  const sampler = setInterval(() => {
    try {
      state.peakRss = Math.max(state.peakRss, rssBytes(child.pid));
    } catch {}
  }, 100);
  child.once('exit', () => clearInterval(sampler));
  await untilAnswering(`${base}/healthz`, { child, what: `server ${script}` });
  return server;
}

async function stopServer(server) {
  if (server.exited) return;
  server.stopping = true; // an exit asked for is not one of the process exits counted
  server.child.kill('SIGTERM');
  await new Promise((resolve) => (server.exited ? resolve() : server.child.once('exit', resolve)));
}

// ---- requests ------------------------------------------------------------------------------

const progress = (line) => process.stderr.write(`[hostile] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request with a deadline: {status, bytes, ms, retryAfter}; status 0 when it failed or timed
 * out (with `error`, e.g. ECONNRESET). A connection of its own unless an `agent` is given.
 */
function send(server, method, path, { body, headers = {}, localAddress, agent = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    let bytes = 0;
    const req = httpRequest(
      `${server.base}${path}`,
      { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, localAddress, agent },
      (res) => {
        const retryAfter = res.headers['retry-after'];
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started, retryAfter }));
        res.on('error', (error) => resolve({ status: 0, bytes, ms: performance.now() - started, error: error.code ?? error.message }));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, bytes, ms: performance.now() - started, error: error.code ?? error.message }));
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

/** Runs `attack` for the bench's seconds (or `forSeconds`) while /healthz is probed every 50 ms. */
async function underAttack(server, attack, forSeconds = seconds) {
  const until = Date.now() + forSeconds * 1000;
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

// ---- scenarios on the service's defaults ---------------------------------------------------
// These run on a server of their own with none of the 'off' overrides: WRITE_RATE_LIMIT,
// TOKEN_FAILURE_LIMIT and the connection caps as an operator gets them. Each uses addresses of
// its own, so one scenario's throttles and shut-outs do not reach the next.

/** TOKEN_FAILURE_LIMIT's default (10/minute): token checks one address gets per match and window. */
const TOKEN_CHECKS_PER_WINDOW = 10;
const TOKEN_WINDOW_SECONDS = 60;
const BROWSER = { accept: 'text/html', 'accept-encoding': 'br, gzip' };
const randomToken = (length) => randomBytes(length).toString('base64url').slice(0, length);

/** Answers by class: ok (2xx, 3xx), refused (an HTTP status ≥ 400) and reset (no HTTP answer), with statuses and errors. */
const tally = () => ({ ok: 0, refused: 0, reset: 0, retryAfter: 0, statuses: {}, errors: {}, times: [] });
const bump = (counts, key) => (counts[key] = (counts[key] ?? 0) + 1);

function record(t, { status, ms, error, retryAfter }) {
  t.times.push(ms);
  if (status === 0) {
    t.reset += 1;
    bump(t.errors, error ?? 'no answer');
    return;
  }
  bump(t.statuses, status);
  if (status < 400) t.ok += 1;
  else {
    t.refused += 1;
    if (retryAfter !== undefined) t.retryAfter += 1;
  }
}

/** A tally with its times as percentiles. */
const summarized = ({ times, ...t }) => ({ ...t, ms: percentiles(times) });

/** "30 ok/2 refused (429 ×2, 2 with Retry-After)/5 reset (ECONNRESET ×5), p99 12 ms". */
function described(t, { p99 = true } = {}) {
  const list = (counts) =>
    Object.entries(counts)
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ');
  const refusedBy = Object.fromEntries(Object.entries(t.statuses).filter(([status]) => Number(status) >= 400));
  const refused = t.refused ? ` (${list(refusedBy)}${t.retryAfter ? `, ${t.retryAfter} with Retry-After` : ''})` : '';
  const reset = t.reset ? ` (${list(t.errors)})` : '';
  return `${t.ok} ok/${t.refused} refused${refused}/${t.reset} reset${reset}${p99 ? `, p99 ${t.ms.p99 ?? '—'} ms` : ''}`;
}

/** Calls `once(i)` every `everyMs` (or when the previous one is answered, if later) until `until`; tallies the answers. */
async function paced(until, everyMs, once) {
  const t = tally();
  for (let i = 0; Date.now() < until; i += 1) {
    const next = Date.now() + everyMs;
    record(t, await once(i));
    await sleep(Math.max(0, next - Date.now()));
  }
  return summarized(t);
}

/** A protected match (created with its write token by POST); the POST's status. */
async function createProtected(server, id, token, address) {
  const body = JSON.stringify({ sport: 'volleyball', id });
  return (await send(server, 'POST', '/api/matches', { body, headers: { 'x-write-token': token }, localAddress: address })).status;
}

/** A scorer's phone: the match's next version every 200 ms (with its token, if any), each on a new connection. */
function scorer(server, { id, token, address, until }) {
  const version = (i) =>
    JSON.stringify({ sport: 'volleyball', status: 'live', homeTeam: { name: 'Home', setsWon: 0 }, awayTeam: { name: 'Away', setsWon: 0 }, rally: i });
  const headers = token ? { 'x-write-token': token } : {};
  return paced(until, 200, (i) => send(server, 'PUT', `/api/matches/${id}`, { body: version(i), headers, localAddress: address }));
}

/** Browsers loading the match page from `address`, one every `everyMs`, each on a new connection. */
const pageLoads = (server, { id, address, until, everyMs = 100 }) =>
  paced(until, everyMs, () => send(server, 'GET', `/match/${id}`, { headers: BROWSER, localAddress: address }));

/** Live streams held open on sockets of their own; `dropped` counts those the server closed. */
function heldStreams() {
  const sockets = [];
  const held = {
    count: () => sockets.length,
    dropped: 0,
    add(socket) {
      sockets.push(socket);
      socket.once('close', () => (socket.ours ? null : (held.dropped += 1)));
    },
    closeAll() {
      for (const socket of sockets) {
        socket.ours = true;
        socket.destroy();
      }
    },
  };
  return held;
}

/** Asks for a live stream on a socket of its own: {status (0: no HTTP answer), error, socket}; the socket is left open on 200. */
function openStream(server, id, address) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: address });
    let settled = false;
    const done = (status, error) => {
      if (settled) return;
      settled = true;
      socket.setTimeout(0);
      if (status !== 200) socket.destroy();
      resolve({ status, error, socket });
    };
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => done(0, 'timeout'));
    socket.on('error', (error) => done(0, error.code ?? error.message));
    socket.on('close', () => done(0, 'closed'));
    // Read what follows too (heartbeats, revisions): a stream left unread would fill its buffers.
    socket.on('data', (chunk) => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0)));
    socket.write(`GET /match/${id}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Live streams from `address`, 20 at a time, until one is refused (the per-address cap) or `max` are held. */
async function holdStreamsUntilRefused(server, { id, address, max }) {
  const held = heldStreams();
  const refused = tally();
  while (held.count() < max) {
    const wave = await Promise.all(Array.from({ length: Math.min(20, max - held.count()) }, () => openStream(server, id, address)));
    for (const stream of wave) stream.status === 200 ? held.add(stream.socket) : record(refused, { ...stream, ms: 0 });
    if (refused.refused + refused.reset > 0) break;
  }
  return { held, refused: summarized(refused) };
}

/**
 * A client that asks again and again for the live stream it is refused, on one keep-alive
 * connection (a page script looping on its error, a bot); when the server closes the
 * connection it opens another at once. What it saw: its answers by status, the connections it
 * used and how they ended.
 */
async function looper(server, { id, address, until }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const seen = { statuses: {}, resets: 0, connections: 0, closedByServer: 0, connectionClose: 0, granted: 0 };
  const sockets = new Set();
  const onSocket = (socket) => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    seen.connections += 1;
    socket.once('close', () => (socket.ours || Date.now() >= until ? null : (seen.closedByServer += 1)));
  };
  const ask = () =>
    new Promise((resolve) => {
      const req = httpRequest(`${server.base}/match/${id}/live`, { agent, localAddress: address, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.headers.connection === 'close') seen.connectionClose += 1;
        if (res.statusCode === 200) {
          // A slot came free: it is a stream now, which this client does not want.
          seen.granted += 1;
          res.socket.ours = true;
          res.destroy();
          return resolve(200);
        }
        res.resume();
        res.on('end', () => resolve(res.statusCode));
        res.on('error', () => resolve(0));
      });
      req.on('socket', onSocket);
      // An answer held back (a server slowing the looper down) is given up at the end, not waited for.
      req.setTimeout(Math.max(1, until - Date.now()), () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(0));
      req.end();
    });
  while (Date.now() < until) {
    const status = await ask();
    if (Date.now() >= until && status === 0) break;
    if (status !== 0) bump(seen.statuses, status);
    else {
      seen.resets += 1;
      await sleep(10); // a connection refused at accept fails in microseconds: not the bench's own CPU spin
    }
  }
  for (const socket of sockets) socket.ours = true;
  agent.destroy();
  return seen;
}

/** The looper's line: "18,000 × 429, 1 connection, closed by the server 0 times, 0 'Connection: close'". */
function describedLooper(l) {
  const statuses = Object.entries(l.statuses)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
  return (
    `looper ${statuses || 'no answers'}${l.resets ? `, ${l.resets} resets` : ''}, ${l.connections} connection(s), ` +
    `closed by the server ${l.closedByServer}×, ${l.connectionClose} 'Connection: close'`
  );
}

/** The NAT targets: every upload and page load from the shared address got an HTTP answer; scorer p99 ≤ 200 ms; /healthz p99 ≤ 100 ms. */
const NAT_TARGET = '0 uploads/page loads reset; scorer p99 ≤ 200 ms; /healthz p99 ≤ 100 ms; no exit';
const natOk = (a, pages) =>
  !a.exited &&
  a.scorer.reset === 0 &&
  pages.reset === 0 &&
  a.scorer.ms.p99 !== null &&
  a.scorer.ms.p99 <= 200 &&
  a.healthz.p99 !== null &&
  a.healthz.p99 <= 100;

/**
 * Each scenario: `run` (its outcome, with /healthz), `summary` (its table cell), `target`, `ok`
 * (the target met), and `answered` (the smoke run's check: the scenario's setup worked and the
 * server answered it, whatever the build's behaviour).
 */
const ON_DEFAULTS = {
  /**
   * deleteGuessing: someone who learnt a protected match's id guesses its write token through
   * DELETE (an erasure, should one be right), with a PUT guess every fourth, from one address as
   * fast as one keep-alive connection allows. TOKEN_FAILURE_LIMIT must bound the tokens checked
   * (403s) per match and window, whatever the method.
   */
  deleteGuessing: {
    async run(server) {
      const id = 'guess-target';
      const created = await createProtected(server, id, randomToken(32), '127.0.0.40');
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const byMethod = { DELETE: tally(), PUT: tally() };
      const result = await underAttack(server, async (until) => {
        for (let i = 0; Date.now() < until; i += 1) {
          const method = i % 4 === 3 ? 'PUT' : 'DELETE';
          const body = method === 'PUT' ? '{"sport":"volleyball"}' : undefined;
          const headers = { 'x-write-token': randomToken(8) };
          record(byMethod[method], await send(server, method, `/api/matches/${id}`, { body, headers, localAddress: '127.0.0.41', agent }));
        }
        return {};
      });
      agent.destroy();
      const after = await send(server, 'GET', `/api/matches/${id}`, { localAddress: '127.0.0.42' });
      const tokenChecks = (byMethod.DELETE.statuses[403] ?? 0) + (byMethod.PUT.statuses[403] ?? 0);
      return { ...result, created, tokenChecks, afterStatus: after.status, DELETE: summarized(byMethod.DELETE), PUT: summarized(byMethod.PUT) };
    },
    summary: (a) => {
      const match = a.afterStatus === 200 ? 'still there' : `answers ${a.afterStatus} after`;
      const create = a.created === 201 || a.created === 200 ? '' : `; create answered ${a.created}`;
      return `${a.tokenChecks} token checks (403); DELETE ${described(a.DELETE)}; PUT ${described(a.PUT)}; match ${match}${create}`;
    },
    target: `≤ ${TOKEN_CHECKS_PER_WINDOW * Math.ceil(seconds / TOKEN_WINDOW_SECONDS)} token checks (403s) whatever the method, match still there, no exit`,
    ok: (a) => !a.exited && a.afterStatus === 200 && a.tokenChecks <= TOKEN_CHECKS_PER_WINDOW * Math.ceil(seconds / TOKEN_WINDOW_SECONDS),
    answered: (a) => a.created >= 200 && a.created < 300 && a.DELETE.ok + a.DELETE.refused > 0,
  },

  /**
   * loopingClientBehindNat: a gym behind one address (127.0.0.60) holds as many live streams as
   * the per-address cap allows; one client there loops asking for the stream it is refused,
   * while the gym's scorer uploads and its browsers load the page. The looper alone must pay.
   */
  loopingClientBehindNat: {
    async run(server) {
      const address = '127.0.0.60';
      const id = 'nat-loop';
      const token = randomToken(32);
      const created = await createProtected(server, id, token, address);
      const { held, refused } = await holdStreamsUntilRefused(server, { id, address, max: 1500 });
      progress(`loopingClientBehindNat: ${held.count()} streams held, then ${described(refused, { p99: false })}`);
      const result = await underAttack(server, async (until) => {
        const [looped, scored, pages] = await Promise.all([
          looper(server, { id, address, until }),
          scorer(server, { id, token, address, until }),
          pageLoads(server, { id, address, until }),
        ]);
        return { looper: looped, scorer: scored, pages };
      });
      const streams = { held: held.count(), dropped: held.dropped, refused };
      held.closeAll();
      await sleep(500);
      return { ...result, created, streams };
    },
    summary: (a) =>
      `${a.streams.held} streams held (${a.streams.dropped} dropped during the attack); scorer ${described(a.scorer)}; ` +
      `pages ${described(a.pages)}; ${describedLooper(a.looper)}`,
    target: NAT_TARGET,
    ok: (a) => natOk(a, a.pages),
    answered: (a) => a.streams.held > 0 && Object.keys(a.looper.statuses).length > 0,
  },

  /**
   * burstBehindNat: a school's parents behind one address (127.0.0.70) arrive within 10 s
   * (700; 50 in the smoke run): each loads the page on a keep-alive connection, left idle
   * after, then opens the live stream and holds it, while the scorer uploads from there too.
   * A parent whose page load failed opens no stream (its page's script never ran).
   */
  burstBehindNat: {
    async run(server) {
      const address = '127.0.0.70';
      const id = 'nat-burst';
      const token = randomToken(32);
      const parents = smoke ? 50 : 700;
      const arrivalSeconds = smoke ? seconds : 10;
      const created = await createProtected(server, id, token, address);
      const pages = tally();
      const streams = tally();
      const held = heldStreams();
      const agents = [];
      const parent = async (p) => {
        await sleep((p * arrivalSeconds * 1000) / parents);
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        const page = await send(server, 'GET', `/match/${id}`, { headers: BROWSER, localAddress: address, agent });
        record(pages, page);
        if (page.status < 200 || page.status >= 400) return;
        const started = performance.now();
        const stream = await openStream(server, id, address);
        record(streams, { ...stream, ms: performance.now() - started });
        if (stream.status === 200) held.add(stream.socket);
      };
      const result = await underAttack(
        server,
        async (until) => {
          const [scored] = await Promise.all([scorer(server, { id, token, address, until }), ...Array.from({ length: parents }, (_, p) => parent(p))]);
          return { scorer: scored };
        },
        Math.max(seconds, arrivalSeconds),
      );
      const outcome = { ...result, created, parents, pages: summarized(pages), streams: { ...summarized(streams), dropped: held.dropped } };
      held.closeAll();
      for (const agent of agents) agent.destroy();
      await sleep(500);
      return outcome;
    },
    summary: (a) =>
      `${a.parents} parents: pages ${described(a.pages)}; streams ${described(a.streams, { p99: false })} ` +
      `(${a.streams.dropped} dropped); scorer ${described(a.scorer)}`,
    target: NAT_TARGET,
    ok: (a) => natOk(a, a.pages),
    answered: (a) => a.pages.ok > 0,
  },

  /**
   * oldRevisions: a match of 400 versions of ~280 KB each (one more rally each: a live match's
   * history); 4 clients from one address read random old revisions, as JSON and as the page,
   * while /healthz is probed and a scorer elsewhere uploads its own match.
   */
  oldRevisions: {
    async run(server) {
      const id = 'old-revisions';
      const versions = smoke ? 20 : 400;
      const actions = smoke ? 50 : 5000;
      progress(`oldRevisions: storing ${versions} versions`);
      const stored = tally();
      for (let v = 0; v < versions; v += 1) {
        const body = JSON.stringify(ADVERSARIAL.manyActions({ actions: actions + v }));
        // From many addresses: 400 writes from one would meet WRITE_RATE_LIMIT (300/minute).
        record(stored, await send(server, 'PUT', `/api/matches/${id}`, { body, localAddress: `127.0.4.${1 + (v % 250)}` }));
      }
      const head = (await fetch(`${server.base}/api/matches/${id}`).then((res) => res.json())).revision ?? versions - 1;
      const scorerAddress = '127.0.0.81';
      await send(server, 'PUT', '/api/matches/revisions-scorer', { body: '{"sport":"volleyball"}', localAddress: scorerAddress });
      const revision = () => Math.floor(Math.random() * (head + 1));
      const read = (i) =>
        i % 2
          ? send(server, 'GET', `/api/matches/${id}?revision=${revision()}`, { localAddress: '127.0.0.80' })
          : send(server, 'GET', `/match/${id}?revision=${revision()}`, { headers: BROWSER, localAddress: '127.0.0.80' });
      const result = await underAttack(server, async (until) => {
        const [reads, scored] = await Promise.all([
          loop(until, 4, (_c, i) => read(i)),
          scorer(server, { id: 'revisions-scorer', address: scorerAddress, until }),
        ]);
        return { reads, scorer: scored };
      });
      return { ...result, versions, head, stored: summarized(stored) };
    },
    summary: (a) =>
      `${a.stored.ok} of ${a.versions} versions stored (head ${a.head}); reads ${a.reads.ok}/${a.reads.refused}/${a.reads.failed}, ` +
      `p99 ${a.reads.ms.p99} ms; scorer ${described(a.scorer)}`,
    target: '/healthz p99 ≤ 100 ms; scorer p99 ≤ 200 ms; no exit',
    ok: (a) => !a.exited && a.healthz.p99 !== null && a.healthz.p99 <= 100 && a.scorer.ms.p99 !== null && a.scorer.ms.p99 <= 200,
    answered: (a) => a.stored.ok === a.versions && a.reads.ok > 0,
  },
};

// ---- one build's run ----------------------------------------------------------------------

/**
 * The attacks in two groups, each on a server of its own: the first with the write and token
 * limits off (what one client costs, unthrottled; the corpus is uploaded there), the second on
 * the service's defaults.
 */
const GROUPS = [
  { name: 'write and token limits off', limits: { WRITE_RATE_LIMIT: 'off', TOKEN_FAILURE_LIMIT: 'off' }, attacks: ATTACKS, corpus: true },
  { name: 'defaults', limits: {}, attacks: Object.fromEntries(Object.entries(ON_DEFAULTS).map(([name, { run }]) => [name, run])), corpus: false },
];

async function runAgainst(script) {
  const state = { peakRss: 0, exits: 0 };
  const run = { script, idle: null, reads: [], attacks: {} };
  for (const group of GROUPS) {
    const names = Object.keys(group.attacks).filter((name) => !only || only.has(name));
    if (names.length === 0) continue;
    progress(`server ${script} (${group.name})`);
    const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-hostile-'));
    let server = await startServer(script, dataDir, state, group.limits);
    const restartIfNeeded = async () => {
      if (server.exited) server = await startServer(script, dataDir, state, group.limits);
    };
    try {
      run.idle ??= await underAttack(server, async (until) => {
        while (Date.now() < until) await sleep(100);
        return {};
      });
      if (group.corpus) run.reads = await corpusPhase(server);
      await restartIfNeeded();
      for (const name of names) {
        progress(`attack ${name}`);
        const exitsBefore = state.exits;
        run.attacks[name] = await group.attacks[name](server);
        run.attacks[name].exited = state.exits > exitsBefore;
        await restartIfNeeded();
      }
    } finally {
      await stopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { ...run, peakRss: state.peakRss, exits: state.exits };
}

// ---- the report ----------------------------------------------------------------------------

const unknown = [...(only ?? [])].filter((name) => !GROUPS.some((group) => name in group.attacks));
if (unknown.length > 0) throw new Error(`--only: no attack named ${unknown.join(', ')} (${GROUPS.flatMap((g) => Object.keys(g.attacks)).join(', ')})`);
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
/** An attack's cell: /healthz, what it did (a scenario on the defaults says it its own way), the server's CPU. */
function attackCell(name, a) {
  if (a === undefined) return 'not run';
  const scenario = ON_DEFAULTS[name];
  const answers = scenario
    ? scenario.summary(a)
    : a.ok !== undefined
      ? `${a.ok}/${a.refused}/${a.failed}`
      : `${a.accepted} accepted, ${a.refused} refused of ${a.attempted}`;
  const extra = scenario ? '' : a.writeAloneMs ? `; write p50 ${a.ms.p50} ms vs ${a.writeAloneMs.p50} ms unwatched` : a.ms ? `; answer p99 ${a.ms.p99} ms` : '';
  return `${fmt(a.healthz.p50)}/${fmt(a.healthz.p99)}, ${answers}${extra}, server CPU ${fmt(a.cpuMs, ' ms')}${a.exited ? ', **exited**' : ''}`;
}

/** An attack's target and whether it was met. */
function attackTarget(name, a) {
  const scenario = ON_DEFAULTS[name];
  if (scenario) return { target: scenario.target, ok: scenario.ok(a) };
  const distributed = name === 'liveStreamsFrom50';
  const ok = !a.exited && (distributed || (a.healthz.p99 !== null && a.healthz.p99 <= 100)) && (name !== 'slowUploads' || a.refused + a.failed === 0);
  const target = distributed
    ? 'no exit (more connections than MAX_CONNECTIONS: new ones are shed while it lasts)'
    : `/healthz p99 ≤ 100 ms, no exit${name === 'slowUploads' ? ', honest uploads all 2xx' : ''}`;
  return { target, ok };
}

for (const name of Object.keys(after.attacks)) {
  const a = after.attacks[name];
  const { target, ok } = attackTarget(name, a);
  const what = ON_DEFAULTS[name] ? `${name}: ${attackCell(name, a)}` : `${name}: /healthz p99 ${a.healthz.p99} ms${a.exited ? ', exited' : ''}`;
  lines.push(`| ${name} | ${runs.map((r) => attackCell(name, r.attacks[name])).join(' | ')} | ${target} | ${check(ok, what)} |`);
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
  const broken = after.reads.filter((r) => !(r.status >= 200 && r.status < 400)).map((r) => `${r.name} ${r.route} answered ${r.status}`);
  for (const [name, a] of Object.entries(after.attacks))
    if (ON_DEFAULTS[name] && !ON_DEFAULTS[name].answered(a)) broken.push(`${name} not set up or not answered: ${attackCell(name, a)}`);
  if (broken.length > 0 || after.exits > 0) {
    console.error(`smoke: ${broken.join('; ')}${after.exits ? `; ${after.exits} exits` : ''}`);
    process.exitCode = 1;
  }
} else if (failed.length > 0) {
  console.error(`\n${failed.length} target(s) missed:\n${failed.map((v) => `- ${v.what}`).join('\n')}`);
  process.exitCode = 1;
}
