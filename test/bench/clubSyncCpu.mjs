#!/usr/bin/env node
// CPU of an upload with club sync against one without, in one matchlog process on the embedded
// default, through app.inject (the whole request: hooks, validation, command, fsync'd log,
// projections; no sockets), 10 uploads at a time, the two kinds alternated round by round
// after one unmeasured round each. Less noisy than `npm run bench`'s latencies on a shared
// machine: it reads the process's own CPU time, not the clock. Not part of npm test.
// Usage: npm run bench:club-sync [-- --rounds 12 --uploads 400] [--smoke]
// (--smoke: one round of 10 uploads, nothing checked; npm test runs it so it cannot rot.)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { load } from './build.mjs';
import { createBenchClub } from './seed.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '12' }, uploads: { type: 'string', default: '400' }, smoke: { type: 'boolean', default: false } },
});
const rounds = values.smoke ? 1 : Number(values.rounds);
const uploads = values.smoke ? 10 : Number(values.uploads);
const root = fileURLToPath(new URL('../..', import.meta.url));
const generator = join(root, 'test/fixtures/generate.mjs');
const dir = mkdtempSync(join(tmpdir(), 'matchlog-club-sync-cpu-'));
Object.assign(process.env, { DATA_DIR: join(dir, 'data'), WRITE_RATE_LIMIT: 'off', LOG_LEVEL: 'warn' });

const { club, clubText } = createBenchClub(process.env.DATA_DIR);
const plainText = execFileSync(process.execPath, [generator, '--seed', '1'], { encoding: 'utf8' });

const { loadConfig } = await load('src/runtime/config.js');
const { openEngine } = await load('src/runtime/engine.js');
const { buildApp } = await load('src/runtime/app.js');
const { loadWriteTokenKey } = await load('src/runtime/writeTokenKey.js');
const { tuneGarbageCollector } = await load('src/runtime/garbageCollector.js');
tuneGarbageCollector();
const config = loadConfig();
const engine = await openEngine(config, { info() {}, error: (obj, msg) => console.error(msg, obj) });
const app = await buildApp({ config, engine, writeTokenKey: loadWriteTokenKey(config) });
await app.ready();

let next = 0;
/** CPU milliseconds of this process per upload, for `uploads` new matches sent 10 at a time. */
async function cpuPerUpload(synced) {
  const headers = { 'content-type': 'application/json', ...(synced ? { 'x-app-key': club.appKey.key } : {}) };
  const text = synced ? clubText : plainText;
  let left = uploads;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) {
        const response = await app.inject({ method: 'POST', url: '/api/matches', headers, payload: `{"id":"cpu-${next++}",${text.slice(1)}` });
        if (response.statusCode !== 201) throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
      }
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / uploads;
}

try {
  await cpuPerUpload(true);
  await cpuPerUpload(false);
  const ratios = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    const cpu = {};
    for (const synced of order) cpu[synced] = await cpuPerUpload(synced);
    ratios.push(cpu.true / cpu.false);
    console.error(`  round ${round + 1}: ${cpu.true.toFixed(3)} ms synced, ${cpu.false.toFixed(3)} ms without, ${(cpu.true / cpu.false).toFixed(2)}×`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `CPU of an upload with club sync / without: median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}× over ${rounds} rounds of ${uploads} ` +
      `(range ${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)})`,
  );
} finally {
  await app.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
