#!/usr/bin/env node
// Rebuild benchmark: how fast `matchlog rebuild` replays a log of N generated matches into a
// fresh copy of every read model and switches to it, compared with reading the same log
// without projecting it (the baseline, same run). Usage: npm run bench:rebuild [-- --matches 10000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteEventStore } from '../../dist/src/eventstore/sqlite.js';
import { openSqliteReadModel } from '../../dist/src/readmodel/sqlite.js';
import { allProjections } from '../../dist/projections/all.js';
import { rebuildProjection } from '../../dist/projections/replay.js';
import { generatePayloads, seedMatches } from './seed.mjs';

const { values } = parseArgs({ options: { matches: { type: 'string', default: '10000' } } });
const count = Number(values.matches);
const dir = mkdtempSync(join(tmpdir(), 'matchlog-rebuild-bench-'));
const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'));
const readModel = openSqliteReadModel(join(dir, 'readmodel.sqlite'));
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

try {
  let t = process.hrtime.bigint();
  const { bytes } = await seedMatches(eventStore, { count, payloads: generatePayloads() });
  console.log(`seeded ${count} matches (${(bytes / 1e6).toFixed(0)} MB of payload) in ${seconds(t).toFixed(1)} s`);

  t = process.hrtime.bigint();
  let read = 0;
  for (let after = null; ; ) {
    const batch = await eventStore.readAll({ after, maxCount: 500 });
    if (batch.length === 0) break;
    read += batch.length;
    after = batch.at(-1).position;
  }
  const baseline = { events: read, seconds: seconds(t) };

  const rows = [];
  for (const projection of allProjections) {
    t = process.hrtime.bigint();
    const result = await rebuildProjection(projection, eventStore, readModel);
    rows.push({ name: projection.name, events: result.events, seconds: seconds(t) });
  }
  const rate = (r) => r.events / r.seconds;
  console.log(`\n${count} matches, node ${process.version}\n`);
  console.log('| pass | events | seconds | events/s | vs reading the log |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| read the log only (baseline) | ${baseline.events} | ${baseline.seconds.toFixed(2)} | ${rate(baseline).toFixed(0)} | 1.000 |`);
  for (const r of rows) console.log(`| rebuild ${r.name} | ${r.events} | ${r.seconds.toFixed(2)} | ${rate(r).toFixed(0)} | ${(rate(r) / rate(baseline)).toFixed(3)} |`);
} finally {
  await readModel.close();
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
}
