#!/usr/bin/env node
// CPU per live re-upload (issue 60): what one more rally or play costs the server, in CPU of all
// its threads (/proc), at several points of a match, for matchlog as built (incremental parse),
// matchlog with LIVE_PARSE_BYTES=0 (every upload parsed whole: the design before), and the naive
// baseline server, side by side in one run.
// Usage: npm run bench:live-cpu [-- --matches 40 --rounds 3 --smoke]
// For each point p of a match: M matches' versions p−3, p−2 and p−1 are uploaded (not measured:
// as during a match, the server has seen its last uploads), then their version p, one more rally
// or play (measured: the server's CPU from before the first to after the last answer, divided by
// M). Volleyball: the generator's live match (seed 7, 135 rallies, up to 58 KB); basketball: a
// generated game cut after n plays (390 KB at 2,100 plays).
// Targets: volleyball ≤ 0.6× the baseline's CPU per request, basketball at 400 KB ≤ 0.3×, and the
// growth from play 200 to play 800 ≤ 1.3×. Exits 1 when a target is missed (not with --smoke).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { load } from './build.mjs';
import { startBenchServer } from './benchServer.mjs';
import { cpuSince } from './processCpu.mjs';
import { liveVersions } from '../fixtures/liveMatch.mjs';

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '3' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = values.smoke;
const matches = smoke ? 2 : Number(values.matches);
const rounds = smoke ? 1 : Number(values.rounds);
const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));
const baselineScript = fileURLToPath(new URL('./baseline/server.mjs', import.meta.url));

const generate = (...args) => JSON.parse(execFileSync(process.execPath, [generator, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }));

/** Volleyball: after k rallies, k at about 1/4, 1/2, 3/4 and the whole of the match. */
const volleyballFull = generate('--seed', '7');
const volleyball = (id) => liveVersions(volleyballFull, id);
/** Basketball: after n plays. */
const basketballFull = generate('--sport', 'basketball', '--seed', '3', '--actions', '2100');
const basketball = (id, plays) =>
  `{"id":${JSON.stringify(id)},${JSON.stringify({ ...basketballFull, status: 'in_progress', actions: basketballFull.actions.slice(0, plays) }).slice(1)}`;

const points = [
  ...[34, 68, 101, 135].map((k) => ({ sport: 'volleyball', at: k, text: (id, n) => volleyball(id).version(n) })),
  ...[200, 400, 800, 2100].map((k) => ({ sport: 'basketball', at: k, text: (id, n) => basketball(id, n) })),
];

async function upload(base, id, body) {
  const response = await fetch(`${base}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-write-token': `token-of-${id}-0123456789abcdef` },
    body,
  });
  if (!response.ok) throw new Error(`POST ${id}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** Uploads in four lanes, as several scoring apps at once. */
async function inLanes(jobs) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
}

let run = 0;
/** ms of the server's CPU (all threads, main thread) per upload of version p after version p−1. */
async function measure(server, point) {
  run += 1;
  const ids = Array.from({ length: matches }, (_, i) => `cpu-${run}-${i}`);
  for (const earlier of [3, 2, 1]) await inLanes(ids.map((id) => () => upload(server.base, id, point.text(id, point.at - earlier))));
  const cpu = cpuSince(server.server.pid);
  await inLanes(ids.map((id) => () => upload(server.base, id, point.text(id, point.at))));
  const per = cpu.perRequest(matches);
  return { server: per.server, main: per.main };
}

const servers = [
  { name: 'matchlog', env: {} },
  { name: 'matchlog, whole parse (LIVE_PARSE_BYTES=0)', env: { LIVE_PARSE_BYTES: '0' } },
  { name: 'baseline', script: baselineScript, env: {} },
];
const results = new Map();
for (const spec of servers) {
  // Never shed (MAX_EVENT_LOOP_DELAY_MS=0): CPU is measured here, on a machine that may be busy.
  const env = { LOG_LEVEL: 'error', MAX_EVENT_LOOP_DELAY_MS: '0', ...spec.env };
  const server = await startBenchServer({ name: spec.name.split(' ')[0].replace(',', ''), script: spec.script, env });
  try {
    // Warm-up: every point once, so that code is compiled before it is measured.
    if (!smoke) for (const point of points) await measure(server, point);
    for (const point of points) {
      const readings = [];
      for (let r = 0; r < rounds; r += 1) readings.push(await measure(server, point));
      readings.sort((a, b) => a.server - b.server);
      results.set(`${spec.name}|${point.sport}|${point.at}`, readings[Math.floor(readings.length / 2)]);
    }
  } finally {
    await server.stop();
  }
}

const ms = (n) => (n === null || n === undefined ? 'n/a' : n.toFixed(3));
const sizeOf = (point) => `${Math.round(point.text('x'.repeat(24), point.at).length / 1024)} KB`;
console.log(`\nCPU per live re-upload, ms (all threads / main thread), median of ${rounds} rounds of ${matches} matches\n`);
console.log('| sport | point | size | matchlog | whole parse | baseline | matchlog / baseline | whole parse / baseline |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const ratio = (point, name) => results.get(`${name}|${point.sport}|${point.at}`).server / results.get(`baseline|${point.sport}|${point.at}`).server;
for (const point of points) {
  const [a, w, b] = servers.map((s) => results.get(`${s.name}|${point.sport}|${point.at}`));
  console.log(
    `| ${point.sport} | ${point.sport === 'volleyball' ? `rally ${point.at}` : `play ${point.at}`} | ${sizeOf(point)} | ${ms(a.server)} / ${ms(a.main)} | ` +
      `${ms(w.server)} / ${ms(w.main)} | ${ms(b.server)} / ${ms(b.main)} | ` +
      `${ratio(point, 'matchlog').toFixed(2)} | ${ratio(point, servers[1].name).toFixed(2)} |`,
  );
}

// The parse alone, in this process: each upload of the live volleyball match parsed whole
// (JSON.parse and the shape check, as before) and against the one before it (as now).
const { reparse } = await load('src/domain/jsonReparse.js');
const { jsonShapeProblem } = await load('src/http/api/jsonShape.js');
const shape = { maxDepth: 64, maxValues: 300_000 };
const uploads = Array.from({ length: volleyball('x').rallies + 1 }, (_, k) => volleyball('parse-bench').version(k));
const parseRounds = smoke ? 1 : 20;
const msPerUpload = (parseOne) => {
  const started = process.hrtime.bigint();
  for (let r = 0; r < parseRounds; r += 1) parseOne();
  return Number(process.hrtime.bigint() - started) / 1e6 / (parseRounds * (uploads.length - 1));
};
const wholeMs = msPerUpload(() => {
  for (const text of uploads.slice(1)) jsonShapeProblem(JSON.parse(text), shape);
});
const againstMs = msPerUpload(() => {
  let basis = { text: uploads[0], value: JSON.parse(uploads[0]), index: null };
  for (const text of uploads.slice(1)) basis = reparse(basis, text, shape).basis;
});
console.log(
  `\nthe parse alone, in process, per upload of the live volleyball match (3–58 KB): whole ${wholeMs.toFixed(3)} ms, ` +
    `against the last ${againstMs.toFixed(3)} ms (${(againstMs / wholeMs).toFixed(2)}×)`,
);

const at = (name, sport, point) => results.get(`${name}|${sport}|${point}`).server;
const growth = (name) => at(name, 'basketball', 800) / at(name, 'basketball', 200);
const targets = [
  { name: 'volleyball, whole match (rally 135)', value: ratio(points[3], 'matchlog'), limit: 0.6 },
  { name: 'basketball at 400 KB (play 2,100)', value: ratio(points[7], 'matchlog'), limit: 0.3 },
  { name: 'growth, play 800 / play 200 (matchlog)', value: growth('matchlog'), limit: 1.3 },
];
console.log(
  `\ngrowth play 800 / play 200: matchlog ${growth('matchlog').toFixed(2)}, ` +
    `whole parse ${growth(servers[1].name).toFixed(2)}, baseline ${growth('baseline').toFixed(2)}\n`,
);
console.log('| target | measured | limit | |\n|---|---:|---:|---|');
for (const target of targets)
  console.log(`| ${target.name} | ${target.value.toFixed(2)} | ≤ ${target.limit} | ${target.value <= target.limit ? 'pass' : 'FAIL'} |`);
if (!smoke && targets.some((target) => target.value > target.limit)) process.exitCode = 1;
