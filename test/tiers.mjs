// The test tiers (README, "Tests"): `node test/tiers.mjs <tier>[,<tier>…] [tap options]` runs
// their files under tap; `--list` prints them instead. `npm test` runs every file (.taprc's
// include), which is the five tiers together. Properties run PROPERTY_RUNS=quick (a tenth of
// their cases) in the unit and contract tiers unless it is set, full everywhere else:
//   unit        every other test: in tap's process, the app on injected requests or a loopback
//               port, real SQLite files, FerretDB when MONGODB_URL is set
//   contract    the event store and read model contracts over each engine (test/contract)
//   e2e         tests that start other processes: the server, the worker, the `matchlog`
//               commands, a crash, the Go verifier, schemathesis; and the heavy ones (HEAVY)
//   browser     pages in Chromium (test/e2e/*.browser.test.ts)
//   bench-smoke every benchmark in its smoke mode (test/bench/smoke.test.ts)
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Outside test/e2e, test/cli, test/fuzz and test/witness, the tests that start a process (a server, a command, a compiler). */
const STARTS_PROCESSES = new Set([
  'test/eventstore/sqliteDeltas.test.ts',
  'test/http/clubExportSpreadsheet.test.ts',
  'test/http/descriptorExhaustion.test.ts',
  'test/http/erasedMatchLetGo.test.ts',
  'test/http/generatedClient.test.ts',
  'test/http/listenBacklog.test.ts',
  'test/http/storageFull.test.ts',
  'test/log/goVerifier.test.ts',
  'test/log/logIdentity.test.ts',
  'test/log/treeCrash.test.ts',
  'test/observability/logFormat.test.ts',
  'test/observability/metrics.test.ts',
  'test/observability/metricsToken.test.ts',
  'test/observability/tracing.test.ts',
  'test/platform/privateFiles.test.ts',
  'test/platform/sqliteFile.test.ts',
  'test/runtime/nodeFlags.test.ts',
  'test/runtime/publicAddressCheck.test.ts',
  'test/suite/brokenProperty.test.ts',
  'test/webhooks/webhookRestart.test.ts',
]);

/**
 * In tap's process, but heavy, so in e2e: every adversarial payload through every route (minutes of
 * CPU), and the files of over 7 s of CPU each with PROPERTY_RUNS=quick, three times and more the
 * median file's 2 s (measured under tsx, README "Tests"): a commit race on both read-model engines,
 * the helper thread's jobs and bodies, 1,500 diffed sequences, every old revision rendered.
 */
const HEAVY = new Set([
  'test/http/adversarialCorpus.test.ts',
  'test/readmodel/pointerSwitch.test.ts',
  'test/runtime/helperThread.test.ts',
  'test/http/helperThreadBodies.test.ts',
  'test/domain/matchDiffText.test.ts',
  'test/http/oldRevisions.test.ts',
]);

/** The tier of a test file: every file has one. */
function tierOf(file) {
  if (file === 'test/bench/smoke.test.ts') return 'bench-smoke';
  if (file.endsWith('.browser.test.ts')) return 'browser';
  if (/^test\/(?:e2e|cli|fuzz|witness)\//.test(file) || STARTS_PROCESSES.has(file) || HEAVY.has(file)) return 'e2e';
  if (file.startsWith('test/contract/')) return 'contract';
  return 'unit';
}

const files = readdirSync(`${root}/test`, { recursive: true })
  .map((path) => `test/${String(path)}`)
  .filter((file) => file.endsWith('.test.ts') && !file.includes('/fixtures/'))
  .sort();
const missing = [...STARTS_PROCESSES, ...HEAVY].filter((file) => !files.includes(file));
if (missing.length > 0) throw new Error(`test/tiers.mjs names files that are not there: ${missing.join(', ')}`);

const [named = '', ...tapArgs] = process.argv.slice(2);
const TIERS = ['unit', 'contract', 'e2e', 'browser', 'bench-smoke'];
const tiers = named.split(',');
if (!tiers.every((tier) => TIERS.includes(tier))) {
  console.error(`usage: node test/tiers.mjs <${TIERS.join('|')}>[,…] [--list | tap options]`);
  process.exit(2);
}
const chosen = files.filter((file) => tiers.includes(tierOf(file)));
if (tapArgs.includes('--list')) {
  console.log(chosen.join('\n'));
} else {
  // Many unit and contract files wait part of their time (on FerretDB, sockets, timers): four at
  // a time keep two cores busy where tap's default, one per core, leaves them idle (README, "Tests").
  const quick = tiers.every((tier) => tier === 'unit' || tier === 'contract');
  const jobs = quick && !tapArgs.some((arg) => /^(?:-j|--jobs)/.test(arg)) ? ['--jobs=4'] : [];
  const env = {
    ...process.env,
    PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? (quick ? 'quick' : 'full'),
  };
  const tap = spawn(process.execPath, [`${root}/node_modules/tap/dist/esm/run.mjs`, ...jobs, ...tapArgs, ...chosen], { cwd: root, env, stdio: 'inherit' });
  tap.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}
