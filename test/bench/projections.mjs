#!/usr/bin/env node
// Projection benchmark: catch-up time and throughput (events/s) of every projection, run the
// way a worker runs them (runner + subscription), over a log of N generated matches, into
// read models on SQLite (the baseline) and, when MONGODB_URL is set, on that MongoDB-wire
// server (FerretDB in CI), in the same run. Not part of npm test.
// Usage: npm run bench:projections [-- --matches 10000] [--versions 1] [--batch 100] [--smoke]
// (--versions N: each match uploaded N times, a creation then N-1 replacements; --smoke: 20
// matches on SQLite only, nothing checked but that every projection catches up without failing.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { load } from './build.mjs';
import { generatePayloads, seedMatches } from './seed.mjs';

const { allProjections } = await load('projections/all.js');
const { runProjection } = await load('projections/runner.js');
const { openSqliteEventStore } = await load('src/eventstore/sqliteEventStore.js');
const { openMongoReadModel } = await load('src/readmodel/mongoReadModel.js');
const { openSqliteReadModel } = await load('src/readmodel/sqliteReadModel.js');

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '10000' },
    versions: { type: 'string', default: '1' },
    batch: { type: 'string', default: '100' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = values.smoke;
const count = smoke ? 20 : Number(values.matches);
const versions = Number(values.versions);
const batchSize = Number(values.batch);
const dir = mkdtempSync(join(tmpdir(), 'matchlog-projection-bench-'));
const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'));
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const failures = [];
const logger = { info: () => {}, error: (obj, msg) => failures.push(`${msg}: ${String(obj.err)}`) };

/** Every projection from an empty read model to the head of the log, all at once, as a worker does. */
async function catchUp(readModel, head) {
  for (const projection of allProjections) await readModel.ensureIndexes(projection.indexes);
  const start = process.hrtime.bigint();
  const runners = allProjections.map((projection) => runProjection(projection, eventStore, readModel, logger, { batchSize }));
  const progress = setInterval(() => {
    const at = runners.map((runner) => `${runner.name} ${runner.status().checkpoint ?? 0}/${head}`).join(', ');
    console.error(`  ${seconds(start).toFixed(0)} s: ${at}`);
  }, 60_000);
  const reached = await Promise.all(runners.map((runner) => runner.waitFor(head, 24 * 3_600_000)));
  clearInterval(progress);
  const elapsed = seconds(start);
  await Promise.all(runners.map((runner) => runner.stop()));
  if (!reached.every(Boolean)) throw new Error('a projection did not catch up');
  return elapsed;
}

const mongoDb = `matchlog_bench_${process.pid}`;
try {
  const t = process.hrtime.bigint();
  const { bytes } = await seedMatches(eventStore, { count, versions, payloads: generatePayloads(smoke ? 4 : 40) });
  const head = await eventStore.headPosition();
  console.log(`seeded ${count} matches × ${versions} version(s) (${head} events, ${(bytes / 1e6).toFixed(0)} MB of payload) in ${seconds(t).toFixed(1)} s`);

  const rows = [];
  const sqlite = openSqliteReadModel(join(dir, 'readmodel.sqlite'));
  rows.push({ name: 'SQLite (baseline)', seconds: await catchUp(sqlite, head) });
  await sqlite.close();

  if (process.env.MONGODB_URL && !smoke) {
    const url = process.env.MONGODB_URL.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)\/?[^?]*/, `$1/${mongoDb}`);
    const client = new MongoClient(url);
    const server = await client.db('admin').command({ buildInfo: 1 });
    const mongo = await openMongoReadModel(url);
    try {
      rows.push({
        name: `MongoDB wire (${server.version}${process.env.MONGODB_URL.includes('127.0.0.1') ? ', local' : ''})`,
        seconds: await catchUp(mongo, head),
      });
    } finally {
      await mongo.close();
      await client.db(mongoDb).dropDatabase();
      await client.close();
    }
  } else {
    console.log('MONGODB_URL is not set: MongoDB read models not measured');
  }

  const baseline = rows[0].seconds;
  console.log(
    `\n${count} matches × ${versions} version(s) = ${head} events, ${allProjections.length} projection(s) (${allProjections.map((p) => p.name).join(', ')}), ` +
      `batch ${batchSize}, node ${process.version}\n`,
  );
  console.log('| read models | catch-up (s) | events/s | throughput vs SQLite |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows)
    console.log(`| ${row.name} | ${row.seconds.toFixed(1)} | ${(head / row.seconds).toFixed(0)} | ${(baseline / row.seconds).toFixed(3)} |`);
  if (failures.length > 0) {
    console.log(`\n${failures.length} projection failure(s) while running: ${failures.slice(0, 3).join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
}
