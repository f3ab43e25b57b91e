// How fast each projection rebuilds from a log of N generated matches, against reading the
// same log without projecting it, each the median of three runs, the two alternated run by run
// (as the HTTP benches alternate their servers). Used by rebuild.mjs and compare.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './build.mjs';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { generatePayloads, seedLiveMatches, seedMatches } from './seed.mjs';

const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');
const { openSqliteReadModel } = await load('src/readmodel/sqliteReadModel.js');
const { allProjections } = await load('projections/all.js');
const { rebuildProjection } = await load('projections/replay.js');

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * Each pass runs this many times and its median time is kept: at 2,000 matches a pass takes
 * about 0.2 s, which one pause of the machine could halve or double.
 */
const RUNS = 3;

/** One timed run of `pass`, which answers how many events it went through. */
async function timed(pass) {
  const t = process.hrtime.bigint();
  const events = await pass();
  return { events, seconds: seconds(t) };
}

const median = (runs) => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)];

/**
 * RUNS runs of `pass` alternated with RUNS of `baseline`, and the median of each: the machine's
 * speed drifts over seconds (writeback of the seed, another process), by up to 2× between runs of
 * this bench (session 30), and a projection is compared with the log read of the same seconds.
 */
async function alternated(pass, baseline) {
  const runs = { pass: [], baseline: [] };
  for (let i = 0; i < RUNS; i += 1) {
    runs.baseline.push(await timed(baseline));
    runs.pass.push(await timed(pass));
  }
  return { pass: median(runs.pass), baseline: median(runs.baseline), baselineRuns: runs.baseline };
}

/** Seeds `count` created matches, then rebuilds every projection, each alternated with reading the log; rates in events/s. */
export const measureRebuild = (count, log = () => {}, distinct = 40) =>
  measureRebuildOf(count, (eventStore) => seedMatches(eventStore, { count, payloads: generatePayloads(distinct) }), log);

/** The same over `count` live-scored matches: 135 uploads each, the later ones stored as deltas. */
export const measureLiveRebuild = (count, log = () => {}) =>
  measureRebuildOf(count, (eventStore) => seedLiveMatches(eventStore, { count, uploads: liveMatchUploads() }), log);

async function measureRebuildOf(count, seed, log) {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-rebuild-bench-'));
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'));
  const readModel = openSqliteReadModel(join(dir, 'readmodel.sqlite'));
  try {
    const t = process.hrtime.bigint();
    const { bytes } = await seed(eventStore);
    log(`seeded ${count} matches (${(bytes / 1e6).toFixed(0)} MB of payload) in ${seconds(t).toFixed(1)} s`);
    // The log at rest, as a rebuild finds it: while the kernel still wrote the seed's pages out, the
    // log read ran at ~4,000 events/s, against ~8,500 after (session 30, docs/performance/steps.md step 59).
    execFileSync('sync');

    const readLog = async () => {
      let read = 0;
      for (let after = null; ; ) {
        const batch = await eventStore.readAll({ after, maxCount: 500 });
        if (batch.length === 0) break;
        read += batch.length;
        after = batch.at(-1).position;
      }
      return read;
    };
    const rate = (r) => r.events / r.seconds;
    const rows = [];
    const baselineRuns = [];
    for (const projection of allProjections) {
      const run = await alternated(async () => (await rebuildProjection(projection, eventStore, readModel)).events, readLog);
      baselineRuns.push(...run.baselineRuns);
      const baselineRate = rate(run.baseline);
      rows.push({
        name: `rebuild ${projection.name}`,
        projection: projection.name,
        ...run.pass,
        rate: rate(run.pass),
        baselineRate,
        ratio: rate(run.pass) / baselineRate,
      });
    }
    // The log read's median over every run, for the table's first row; each projection's ratio is to its own runs'.
    const baseline = { name: 'read the log only (baseline)', ...median(baselineRuns) };
    return { baseline: { ...baseline, rate: rate(baseline) }, rows };
  } finally {
    await readModel.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
