#!/usr/bin/env node
// The restore drill at scale: a server with N matches (10,000 by default, one upload each), a
// writer uploading new matches while `matchlog backup` runs, then `matchlog restore` into a new
// DATA_DIR and `matchlog verify` there. Prints backup time and size, writes acknowledged during
// the backup, restore and verify times. Usage (after npm run build):
//   node test/bench/backupDrill.mjs [--matches 10000] [--writers 4] [--verify]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchPort } from './build.mjs';
import { untilAnswering } from './untilAnswering.mjs';

const { values } = parseArgs({
  options: { matches: { type: 'string', default: '10000' }, writers: { type: 'string', default: '4' }, verify: { type: 'boolean', default: false } },
});
const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/src/bin/matchlog.js');
const base = JSON.parse(execFileSync(process.execPath, [join(root, 'test/fixtures/generate.mjs'), '--seed', '7'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const dir = mkdtempSync(join(tmpdir(), 'matchlog-drill-'));
const env = { ...process.env, DATA_DIR: join(dir, 'live'), WRITE_RATE_LIMIT: 'off', TOKEN_FAILURE_LIMIT: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
const port = benchPort();
const url = `http://127.0.0.1:${port}`;
const log = (line) => console.error(line);

const server = spawn(process.execPath, [join(root, 'dist/src/bin/server.js')], { env: { ...env, PORT: String(port) }, stdio: 'inherit' });
await untilAnswering(`${url}/healthz`, { child: server });
const upload = (id) =>
  fetch(`${url}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-write-token': `token-${id}-000000` },
    body: JSON.stringify({ ...base, id }),
  }).then((res) => res.status);

const matches = Number(values.matches);
let next = 0;
const seedStarted = performance.now();
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < matches) {
      const id = `m-${next++}`;
      if ((await upload(id)) !== 201) throw new Error(`upload of ${id} failed`);
      if (next % 2000 === 0) log(`seeded ${next}`);
    }
  }),
);
log(`seeded ${matches} matches in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

let writing = true;
let during = 0;
const latencies = [];
const backupLatencies = [];
let backingUp = false;
const writers = Array.from({ length: Number(values.writers) }, async (_, w) => {
  for (let i = 0; writing; i += 1) {
    const started = performance.now();
    if ((await upload(`during-${w}-${i}`)) === 201) {
      during += 1;
      latencies.push(performance.now() - started);
      if (backingUp) backupLatencies.push(performance.now() - started);
    }
  }
});
await new Promise((r) => setTimeout(r, 1000));
const before = during;
const backupDir = join(dir, 'backup');
const backupStarted = performance.now();
backingUp = true;
// Spawned, not run synchronously: the writers of this process keep going meanwhile.
const backupOut = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [cli, 'backup', backupDir], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`backup exited with ${code}`))));
});
const backupSeconds = (performance.now() - backupStarted) / 1000;
backingUp = false;
const duringBackup = during - before;
writing = false;
await Promise.all(writers);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));

const restoreStarted = performance.now();
execFileSync(process.execPath, [cli, 'restore', backupDir], { env: { ...env, DATA_DIR: join(dir, 'restored') }, encoding: 'utf8' });
const restoreSeconds = (performance.now() - restoreStarted) / 1000;
let verifySeconds = null;
if (values.verify) {
  const verifyStarted = performance.now();
  execFileSync(process.execPath, [cli, 'verify'], { env: { ...env, DATA_DIR: join(dir, 'restored') }, encoding: 'utf8' });
  verifySeconds = (performance.now() - verifyStarted) / 1000;
}
latencies.sort((a, b) => a - b);
backupLatencies.sort((a, b) => a - b);
console.log(backupOut.trim());
console.log(
  JSON.stringify({
    matches,
    backupSeconds: Number(backupSeconds.toFixed(1)),
    writesAcknowledgedDuringBackup: duringBackup,
    writeP50MsWholeDrill: Math.round(latencies[Math.floor(latencies.length * 0.5)] ?? 0),
    writeP50MsDuringBackup: Math.round(backupLatencies[Math.floor(backupLatencies.length * 0.5)] ?? 0),
    writeP99MsDuringBackup: Math.round(backupLatencies[Math.floor(backupLatencies.length * 0.99)] ?? 0),
    restoreSeconds: Number(restoreSeconds.toFixed(1)),
    verifySeconds: verifySeconds === null ? null : Number(verifySeconds.toFixed(1)),
  }),
);
rmSync(dir, { recursive: true, force: true });
