#!/usr/bin/env node
// What witnesses cost the write path: the same uploads against a real server with no witness, one
// and three local `matchlog witness` processes (C2SP tlog-witness over loopback), in one run,
// the configurations alternated. Each upload's time is until its answer, whose receipt then
// carries the quorum's cosignatures. Usage: npm run build && node test/bench/witnessCost.mjs [--uploads 400] [--rounds 2]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchPort, cliArgs, load, serverArgs } from './build.mjs';

const { values } = parseArgs({
  options: { uploads: { type: 'string', default: '400' }, rounds: { type: 'string', default: '2' }, concurrency: { type: 'string', default: '1' } },
});
const uploads = Number(values.uploads);
const concurrency = Number(values.concurrency);
const { noteSignerFromSeed, signerKeyString, verifierKeyString } = await load('src/domain/signedNote.js');
const seed = Buffer.alloc(32, 11);
const signer = noteSignerFromSeed('bench.test/log', seed);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `matchlog witness` process; resolves with its submission prefix and key once it printed its key. */
async function startWitness(dir, name) {
  const port = benchPort();
  const child = spawn(
    process.execPath,
    cliArgs('witness', '--dir', dir, '--host', '127.0.0.1', '--port', String(port), '--name', name, '--log', verifierKeyString(signer)),
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const key = /^witness key: (\S+)$/.exec(first)?.[1];
  if (key === undefined) throw new Error(`the witness printed ${first}`);
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      await sleep(50);
    }
  }
  return { child, url: `http://127.0.0.1:${port}`, key };
}

const payload = (id, n) =>
  JSON.stringify({
    id,
    sport: 'volleyball',
    homeTeam: { name: 'Home', setsWon: n % 3 },
    awayTeam: { name: 'Away', setsWon: 2 },
    actions: Array.from({ length: 40 }, (_, i) => ({ type: 'point', team: i % 2 ? 'home' : 'away', at: `PT${i}S`, n })),
  });

async function measure(witnessCount) {
  const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-witness-bench-'));
  const witnesses = [];
  for (let i = 0; i < witnessCount; i += 1) {
    mkdirSync(join(dataDir, `w${i}`));
    witnesses.push(await startWitness(join(dataDir, `w${i}`), `witness-${i}.bench`));
  }
  const port = benchPort();
  const server = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WRITE_RATE_LIMIT: 'off',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      LOG_SIGNING_KEY: signerKeyString(signer, seed),
      LOG_WITNESSES: JSON.stringify(witnesses.map(({ url, key }) => ({ url, key }))),
    },
    stdio: ['ignore', openSync(join(dataDir, 'server.log'), 'w'), 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i += 1) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (i > 600) throw new Error('the server did not start');
      await sleep(100);
    }
    const put = async (id, n) => {
      const start = process.hrtime.bigint();
      const response = await fetch(`${base}/api/matches/${id}`, { method: 'PUT', body: payload(id, n), headers: { 'content-type': 'application/json' } });
      const body = await response.json();
      if (!response.ok) throw new Error(`PUT answered ${response.status}`);
      return { ms: Number(process.hrtime.bigint() - start) / 1e6, cosigned: body.receipt.cosigned };
    };
    for (let i = 0; i < 50; i += 1) await put(`warm-${i}`, i);
    const times = [];
    let cosigned = 0;
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < uploads) {
          const n = next++;
          const result = await put(`m-${n % 100}`, n);
          times.push(result.ms);
          if (result.cosigned) cosigned += 1;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: uploads / seconds, cosigned };
  } finally {
    server.kill('SIGTERM');
    for (const { child } of witnesses) child.kill('SIGTERM');
    await sleep(300);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = { 0: [], 1: [], 3: [] };
for (let round = 0; round < Number(values.rounds); round += 1) for (const count of [0, 1, 3]) results[count].push(await measure(count));
console.log(`${uploads} uploads of ~3 KB each, ${concurrency} at a time, ${values.rounds} rounds alternated; median of rounds`);
for (const [count, runs] of Object.entries(results)) {
  const med = (field) => [...runs.map((run) => run[field])].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const cosigned = runs.map((run) => run.cosigned).join('/');
  const rate = med('perSecond').toFixed(0);
  console.log(
    `${count} witness(es): p50 ${med('p50').toFixed(2)} ms, p99 ${med('p99').toFixed(2)} ms, ${rate} uploads/s, receipts cosigned ${cosigned} of ${uploads}`,
  );
}
