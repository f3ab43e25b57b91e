// How fast each projection rebuilds from a log of N generated matches, against reading the
// same log without projecting it (same run), each the median of three runs. Used by rebuild.mjs
// and compare.mjs.
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

/** The median of RUNS timed runs of `pass`, which answers how many events it went through. */
async function medianRun(pass) {
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t = process.hrtime.bigint();
    const events = await pass();
    runs.push({ events, seconds: seconds(t) });
  }
  return runs.sort((a, b) => a.seconds - b.seconds)[Math.floor(RUNS / 2)];
}

/** Seeds `count` created matches, reads the log once, rebuilds every projection; rates in events/s. */
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
    const baseline = { name: 'read the log only (baseline)', ...(await medianRun(readLog)) };

    const rows = [];
    for (const projection of allProjections) {
      const run = await medianRun(async () => (await rebuildProjection(projection, eventStore, readModel)).events);
      rows.push({ name: `rebuild ${projection.name}`, projection: projection.name, ...run });
    }
    const rate = (r) => r.events / r.seconds;
    return { baseline: { ...baseline, rate: rate(baseline) }, rows: rows.map((r) => ({ ...r, rate: rate(r), ratio: rate(r) / rate(baseline) })) };
  } finally {
    await readModel.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
