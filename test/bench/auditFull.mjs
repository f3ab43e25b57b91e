#!/usr/bin/env node
// How long `matchlog audit --full` takes over a log of N generated matches (one version each),
// against a real server on loopback: the auditor's whole run, as a child process, from a fresh
// state, against the way it ran before tiles (same run, alternated). Usage: npm run build && node test/bench/auditFull.mjs [--matches 3000]
import { execFile, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { benchPort, cliArgs, load, serverArgs } from './build.mjs';
import { generatePayloads, seedMatches } from './seed.mjs';

const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');
const { tilePath } = await load('src/domain/logTiles.js');
const RUNS = 3;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const timed = async (pass) => {
  const start = process.hrtime.bigint();
  await pass();
  return seconds(start);
};
const { values } = parseArgs({ options: { matches: { type: 'string', default: '3000' }, actions: { type: 'string' } } });
// --actions N: small payloads (N actions each) instead of the generator's full matches (~80 KB).
const small = (i) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url)), '--seed', String(i + 1), '--actions', values.actions],
      { encoding: 'utf8' },
    ),
  );
const payloads = values.actions === undefined ? generatePayloads(40) : Array.from({ length: 40 }, (_, i) => small(i));
const count = Number(values.matches);
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-audit-bench-'));
const eventStore = openSqliteEventStore(join(dataDir, 'events.sqlite'));
const { bytes } = await seedMatches(eventStore, { count, payloads });
await eventStore.close?.();
console.log(`seeded ${count} matches (${(bytes / 1e6).toFixed(0)} MB of payload)`);

const port = benchPort();
const server = spawn(process.execPath, serverArgs(), {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off', MAX_EVENT_LOOP_DELAY_MS: '0' },
  stdio: ['ignore', openSync(join(dataDir, 'server.log'), 'w'), 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  let size = -1;
  for (let i = 0; size < count; i += 1) {
    try {
      const note = await (await fetch(`${base}/api/log/checkpoint`)).text();
      size = Number(note.split('\n')[1]) || -1;
    } catch {}
    if (i > 6000) throw new Error(`the tree did not reach ${count} leaves`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const key = (await (await fetch(`${base}/api/log/key`)).text()).trim();
  // Before tiles, as audit --full ran until issue 59: an entry, then its payload, one request at a time.
  const oneByOne = async () => {
    for (let i = 0; i < count; i += 1) {
      const entry = JSON.parse(await (await fetch(`${base}/api/log/entries/${i}`)).text());
      const response = await fetch(`${base}/api/matches/${entry.matchId}/payload?revision=${entry.revision}`);
      const salt = Buffer.from(response.headers.get('matchlog-payload-salt'), 'base64');
      createHash('sha256')
        .update(salt)
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('hex');
    }
  };
  const audit = () => {
    const state = join(dataDir, `auditor-${Math.random()}.json`);
    // Not execFileSync: a blocked loop misses the server closing idle keep-alive sockets, and the next fetch finds one closed.
    return promisify(execFile)(process.execPath, cliArgs('audit', base, '--key', key, '--state', state, '--full'));
  };
  const bundles = async () => {
    for (let n = 0; n * 256 < count; n += 1)
      await (await fetch(`${base}/api/log/tile/entries/${tilePath({ level: 'entries', index: n, width: Math.min(256, count - n * 256) })}`)).arrayBuffer();
  };
  const entriesOnly = async () => {
    for (let i = 0; i < count; i += 1) await (await fetch(`${base}/api/log/entries/${i}`)).text();
  };
  const runs = { before: [], audit: [], entries: [], bundles: [] };
  for (let i = 0; i < RUNS; i += 1) {
    runs.before.push(await timed(oneByOne));
    runs.audit.push(await timed(audit));
    runs.entries.push(await timed(entriesOnly));
    runs.bundles.push(await timed(bundles));
  }
  const per100k = (s) => ((100000 * s) / count).toFixed(0);
  console.log(`\n${count} entries (median of ${RUNS} runs, alternated), node ${process.version}\n`);
  console.log('| what | seconds | 100,000 entries ≈ s |');
  console.log('|---|---:|---:|');
  const row = (name, list) => console.log(`| ${name} | ${median(list).toFixed(2)} | ${per100k(median(list))} |`);
  row('before: an entry and its payload a request each, one at a time', runs.before);
  row('`matchlog audit --full` now (bundles, 8 payloads in flight, a process)', runs.audit);
  row('the entries alone, a request each', runs.entries);
  row('the entries alone, by bundles of 256', runs.bundles);
} catch (error) {
  console.error('server exit:', server.exitCode, server.signalCode);
  console.error(readFileSync(join(dataDir, 'server.log'), 'utf8').slice(-3000));
  throw error;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
