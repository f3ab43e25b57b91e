import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

const run = promisify(execFile);
const server = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));

// Benchmarks are not run by `npm test`, so a refactor could break one unnoticed: each `bench:*`
// script runs here in its smoke mode (tiny sizes, a second a measure, targets unchecked) and
// fails on any answer it cannot time. Each runs under tap's TypeScript loader, which it passes on
// to the servers and commands it starts (test/bench/build.mjs): the sources are measured, never
// a stale build, and none is needed. `npm run bench` (compare.mjs) is among them.
const BENCHES: { script: string; args?: string[]; printed: RegExp }[] = [
  { script: 'hostile.mjs', args: ['--server', server, `--node-args=${typescriptExecArgv().join(' ')}`], printed: /\| peak RSS \|/ },
  { script: 'http.mjs', printed: /\| GET \/match\/:id \(HTML page\) \|/ },
  { script: 'sse.mjs', printed: /uncached render, in process +\d+ pages\/s/ },
  { script: 'rebuild.mjs', printed: /\| rebuild publicView \|/ },
  { script: 'projections.mjs', printed: /\| SQLite \(baseline\) \|/ },
  { script: 'uploadMemory.mjs', printed: /"peakRssMiB"/ },
  { script: 'clubPages.mjs', printed: /\| \/dashboard\/players \|/ },
  { script: 'clubSyncCpu.mjs', printed: /CPU of an upload with club sync/ },
  { script: 'matchday.mjs', printed: /\| viewer delay, upload's 2xx → revision on the stream, p50 \/ p99 \| \d+ \/ \d+ ms/ },
  { script: 'growth.mjs', printed: /\| POST replace \(a live match, one more rally\) \|/ },
  {
    script: 'compare.mjs',
    // The live row, its floor without read models, the CPU each cost against its budget (Linux), the rebuilds.
    printed: new RegExp(
      [
        "\\| POST replace, a live match's next version .*the write path's floor",
        '.*CPU per request, ms.*\\| the same, matchlog without read models [^|]*\\| [\\d.]+ / [\\d.]+ \\|',
        '.*\\| rebuild matchHistory vs log read \\(2 live-scored matches, deltas\\)',
      ].join(''),
      's',
    ),
  },
  { script: 'liveMatchDisk.mjs', printed: /\d+ created matches: file [\d,]+ bytes stored whole/ },
  { script: 'deltaCandidates.mjs', printed: /\| fossil delta \| 32 \|/ },
  { script: 'liveUploadCpu.mjs', printed: /\| growth, play 800 \/ play 200 \(matchlog\) \|/ },
];

// A few at a time: each starts a server or two under the TypeScript loader.
t.jobs = 3;
for (const { script, args = [], printed } of BENCHES) {
  t.test(`${script} runs (smoke mode)`, { buffered: true }, async (t) => {
    const path = fileURLToPath(new URL(script, import.meta.url));
    const { stdout } = await run(process.execPath, [...typescriptExecArgv(), path, '--smoke', ...args], { maxBuffer: 16 << 20, timeout: 300_000 });
    t.match(stdout, printed, 'it printed its table');
  });
}
