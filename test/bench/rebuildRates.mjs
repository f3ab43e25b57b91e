// How fast each projection rebuilds from a log of N generated matches, against reading the
// same log without projecting it (same run). Used by rebuild.mjs and compare.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../../dist/src/eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../../dist/src/readmodel/sqliteReadModel.js';
import { allProjections } from '../../dist/projections/all.js';
import { rebuildProjection } from '../../dist/projections/replay.js';
import { generatePayloads, seedMatches } from './seed.mjs';

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/** Seeds `count` matches, reads the log once, rebuilds every projection; rates in events/s. */
export async function measureRebuild(count, log = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'matchlog-rebuild-bench-'));
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'));
  const readModel = openSqliteReadModel(join(dir, 'readmodel.sqlite'));
  try {
    let t = process.hrtime.bigint();
    const { bytes } = await seedMatches(eventStore, { count, payloads: generatePayloads() });
    log(`seeded ${count} matches (${(bytes / 1e6).toFixed(0)} MB of payload) in ${seconds(t).toFixed(1)} s`);

    t = process.hrtime.bigint();
    let read = 0;
    for (let after = null; ; ) {
      const batch = await eventStore.readAll({ after, maxCount: 500 });
      if (batch.length === 0) break;
      read += batch.length;
      after = batch.at(-1).position;
    }
    const baseline = { name: 'read the log only (baseline)', events: read, seconds: seconds(t) };

    const rows = [];
    for (const projection of allProjections) {
      t = process.hrtime.bigint();
      const result = await rebuildProjection(projection, eventStore, readModel);
      rows.push({ name: `rebuild ${projection.name}`, projection: projection.name, events: result.events, seconds: seconds(t) });
    }
    const rate = (r) => r.events / r.seconds;
    return { baseline: { ...baseline, rate: rate(baseline) }, rows: rows.map((r) => ({ ...r, rate: rate(r), ratio: rate(r) / rate(baseline) })) };
  } finally {
    await readModel.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
