#!/usr/bin/env node
// How long `matchlog audit --full` takes over a log of N generated matches (one version each),
// against a real server on loopback: the auditor's whole run, as a child process, from a fresh
// state. Usage: npm run build && node test/bench/auditFull.mjs [--matches 5000]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchPort, cliArgs, load, serverArgs } from './build.mjs';
import { generatePayloads, seedMatches } from './seed.mjs';

const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');
const { values } = parseArgs({ options: { matches: { type: 'string', default: '5000' } } });
const count = Number(values.matches);
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-audit-bench-'));
const eventStore = openSqliteEventStore(join(dataDir, 'events.sqlite'));
const { bytes } = await seedMatches(eventStore, { count, payloads: generatePayloads(40) });
await eventStore.close?.();
console.log(`seeded ${count} matches (${(bytes / 1e6).toFixed(0)} MB of payload)`);

const port = benchPort();
const server = spawn(process.execPath, serverArgs(), {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off' },
  stdio: ['ignore', openSync(join(dataDir, 'server.log'), 'w'), 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  let size = -1;
  for (let i = 0; size < count; i += 1) {
    try {
      const note = await (await fetch(`${base}/api/log/checkpoint`)).text();
      size = Number(note.split('\n')[1]);
    } catch {}
    if (i > 6000) throw new Error(`the tree did not reach ${count} leaves`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const key = (await (await fetch(`${base}/api/log/key`)).text()).trim();
  const state = join(dataDir, 'auditor.json');
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, cliArgs('audit', base, '--key', key, '--state', state, '--full'), { encoding: 'utf8' });
  const took = seconds(start);
  process.stdout.write(out);
  // The two kinds of request the run made, timed apart: an entry each, then a payload each.
  let t = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) await (await fetch(`${base}/api/log/entries/${i}`)).text();
  console.log(`GET /api/log/entries/:index × ${count}: ${seconds(t).toFixed(2)} s`);
  t = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) await (await fetch(`${base}/api/matches/bench-${String(i).padStart(6, '0')}/payload?revision=0`)).arrayBuffer();
  console.log(`GET /api/matches/:id/payload × ${count}: ${seconds(t).toFixed(2)} s`);
  console.log(
    `audit --full of ${count} entries: ${took.toFixed(2)} s, ${(count / took).toFixed(0)} entries/s; 100,000 entries ≈ ${((100000 * took) / count).toFixed(0)} s`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
