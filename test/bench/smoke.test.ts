import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

const run = promisify(execFile);
const server = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));

// Benchmarks are not run by `npm test`, so a refactor could break one unnoticed: each runs here
// at tiny sizes for a second an attack, targets unchecked, and fails on any answer it cannot time.
for (const bench of ['hostile.mjs']) {
  t.test(`npm run bench:${bench.replace('.mjs', '')} runs (smoke mode)`, async (t) => {
    const script = fileURLToPath(new URL(bench, import.meta.url));
    const { stdout } = await run(process.execPath, [script, '--smoke', '--server', server, `--node-args=${typescriptExecArgv().join(' ')}`], { maxBuffer: 16 << 20, timeout: 300_000 });
    t.match(stdout, /\| peak RSS \|/, 'it printed its table');
  });
}
