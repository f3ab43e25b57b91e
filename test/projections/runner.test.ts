import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Projection } from '../../projections/projection.js';
import { runProjections } from '../../projections/runner.js';
import { verifyProjection } from '../../projections/verify.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import { collectionOf, type ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { tempDataDir } from '../helpers/testApp.js';

const quiet = { info: () => {}, error: () => {} };

/** Stores one document per event it sees; throws on events of type `failOn` while `failing()` says so. */
const counter = (name: string, failOn: string | null = null, failing = () => true): Projection => ({
  name,
  collections: [name],
  indexes: [],
  async apply(event, view) {
    if (event.type === failOn && failing()) throw new Error(`${name} cannot apply ${event.type}`);
    view.put(name, { id: String(event.position), type: event.type });
  },
});

/** Counts the events it sees in one document: an event applied twice shows in the count. */
const tally = (name: string): Projection => ({
  name,
  collections: [name],
  indexes: [],
  async apply(event, view) {
    const total = await view.get(collectionOf<{ id: string; events: number; last: number }>(name), 'total');
    view.put(name, { id: 'total', events: (total?.events ?? 0) + 1, last: event.position });
  },
});

/** Every runner test runs on both read-model adapters: SQLite, and MongoDB (FerretDB) when MONGODB_URL names one. */
const adapters: { name: string; open: (t: Test, dir: string) => Promise<ReadModelStore> }[] = [
  { name: 'sqlite', open: async (_t, dir) => openSqliteReadModel(join(dir, 'read.sqlite')) },
  { name: 'mongodb', open: async (t) => openMongoReadModel(testMongoUrl(t) ?? '') },
];

async function world(t: Test, adapter: (typeof adapters)[number]) {
  const dir = tempDataDir(t);
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  const readModel = await adapter.open(t, dir);
  const scratch = openSqliteReadModel(join(dir, 'scratch.sqlite'));
  t.teardown(async () => {
    await scratch.close();
    await readModel.close();
    await eventStore.close();
  });
  // Event ids are UUIDs in every store (src/eventstore/eventChecks.ts).
  const append = (stream: string, type: string, count = 1) =>
    eventStore.appendToStream(
      stream,
      Array.from({ length: count }, () => ({ id: randomUUID(), type, data: '{}', metadata: { schemaVersion: 1 } })),
      'any',
    );
  /** Runs projections until each reached `position` (true when they all did), then stops them. */
  const runUntil = async (projections: Projection[], position: number, batchSize?: number) => {
    const running = runProjections(projections, eventStore, readModel, quiet, batchSize === undefined ? {} : { batchSize });
    const reached = (await Promise.all(running.map((r) => r.waitFor(position, 10_000)))).every(Boolean);
    await running[0]?.stop();
    return reached;
  };
  /** The differences between a projection's documents and a replay of the whole log. */
  const differences = async (projection: Projection) => (await verifyProjection(projection, eventStore, readModel, scratch, 1)).differences;
  return { dir, eventStore, readModel, append, runUntil, differences };
}

for (const adapter of adapters) {
  t.test(`runner on ${adapter.name}`, adapter.name === 'mongodb' && !process.env.MONGODB_URL ? { skip: NO_MONGODB } : {}, async (t) => {
    t.test('projections run together: every one sees every event once, and their checkpoints move in one commit', async (t) => {
      const { eventStore, readModel, append } = await world(t, adapter);
      for (let i = 0; i < 5; i += 1) await append(`s-${i}`, 'X');
      const running = runProjections([counter('a'), counter('b')], eventStore, readModel, quiet, { batchSize: 2 });
      t.ok((await Promise.all(running.map((r) => r.waitFor(5, 10_000)))).every(Boolean), 'both caught up');
      await running[0]!.stop();
      t.equal(await readModel.count('a'), 5);
      t.equal(await readModel.count('b'), 5);
      t.equal(await readModel.getCheckpoint('a'), 5);
      t.equal(await readModel.getCheckpoint('b'), 5);
    });

    t.test('a projection behind the others gets only the events it has not applied', async (t) => {
      const { eventStore, readModel, append } = await world(t, adapter);
      for (let i = 0; i < 4; i += 1) await append(`s-${i}`, 'X');
      const first = runProjections([counter('ahead')], eventStore, readModel, quiet);
      await first[0]!.waitFor(4, 10_000);
      await first[0]!.stop();
      await readModel.reset('ahead', ['ahead']);
      await readModel.commit('ahead', [], 4, null);
      await append('s-late', 'X');
      const running = runProjections([counter('ahead'), counter('behind')], eventStore, readModel, quiet);
      await Promise.all(running.map((r) => r.waitFor(5, 10_000)));
      await running[0]!.stop();
      t.equal(await readModel.count('ahead'), 1, 'the projection at 4 applied only event 5');
      t.equal(await readModel.count('behind'), 5, 'the new projection applied all five');
    });

    t.test('a failing projection leaves the group and retries alone; the others go on', async (t) => {
      const { eventStore, readModel, append } = await world(t, adapter);
      let broken = true;
      const running = runProjections([counter('healthy'), counter('fragile', 'Poison', () => broken)], eventStore, readModel, quiet, {
        retryDelayMs: 20,
        maxRetryDelayMs: 40,
      });
      const [healthy, fragile] = running;
      await append('s-1', 'X');
      await append('s-2', 'Poison');
      await append('s-3', 'X');
      t.ok(await healthy!.waitFor(3, 10_000), 'the healthy projection passed the poison event');
      t.equal(await readModel.count('healthy'), 3);
      t.notOk(await fragile!.waitFor(2, 300), 'the failing one is held at the event it cannot apply');
      t.match(fragile!.status().failure, { position: 2, streamId: 's-2', message: /cannot apply Poison/ }, 'and says so in its status');
      broken = false;
      t.ok(await fragile!.waitFor(3, 10_000), 'once the fault is gone it catches up');
      t.equal(fragile!.status().failure, null);
      t.equal(await readModel.count('fragile'), 3, 'nothing was skipped');
      await fragile!.stop();
    });

    t.test('an event the store cannot read: the events before it are applied, and every member says where it stopped', async (t) => {
      const { dir, readModel, append } = await world(t, adapter);
      await append('s-1', 'X');
      await append('s-2', 'X');
      await append('s-3', 'X');
      // A delta whose base is gone, as an edited or truncated log would hold it; read by a store that did not write it.
      const db = new Database(join(dir, 'events.sqlite'));
      db.prepare("UPDATE events SET encoding = 'delta', base_revision = 7, data = 'not a delta' WHERE position = 3").run();
      db.close();
      const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
      t.teardown(() => eventStore.close());
      const running = runProjections([counter('a'), counter('b')], eventStore, readModel, quiet, { retryDelayMs: 20, maxRetryDelayMs: 40 });
      t.ok(await running[0]!.waitFor(2, 10_000), 'the events before it were applied');
      t.notOk(await running[0]!.waitFor(3, 300), 'nothing from the unreadable event on');
      for (const projection of running)
        t.match(
          projection.status().failure,
          { position: 3, streamId: 's-3', message: /position 3 of stream s-3 cannot be read/ },
          `${projection.status().name} says where`,
        );
      t.equal(await readModel.count('a'), 2);
      await running[0]!.stop();
    });

    t.test('a projection ahead of its group keeps its checkpoint and applies each event once', async (t) => {
      // Gaps of one and two appends (of one and two events) between the two, read in small batches.
      for (const gap of [1, 2]) {
        for (const batchSize of [1, 2, 3]) {
          for (const order of ['behind first', 'ahead first']) {
            await t.test(`gap of ${gap} append(s), batches of ${batchSize}, ${order}`, async (t) => {
              const { eventStore, append, runUntil, differences, readModel } = await world(t, adapter);
              const [behind, ahead] = [tally('behind'), tally('ahead')];
              for (let i = 0; i < 3; i += 1) await append(`s-${i}`, 'X', 1 + (i % 2));
              t.ok(await runUntil([behind], (await eventStore.headPosition()) ?? 0));
              for (let i = 0; i < gap; i += 1) await append(`gap-${i}`, 'X', 2 - (i % 2));
              const aheadAt = (await eventStore.headPosition()) ?? 0;
              t.ok(await runUntil([ahead], aheadAt));
              for (let i = 0; i < 3; i += 1) await append(`after-${i}`, 'X', 1 + (i % 2));
              const head = (await eventStore.headPosition()) ?? 0;
              t.ok(await runUntil(order === 'behind first' ? [behind, ahead] : [ahead, behind], head, batchSize), 'both reach the head');
              for (const projection of [behind, ahead]) {
                t.equal(await readModel.getCheckpoint(projection.name), head, `${projection.name} is at the head`);
                t.same(await differences(projection), [], `${projection.name} is exactly what the log says`);
                t.same(await readModel.get(projection.name, 'total'), { id: 'total', events: head, last: head }, `${projection.name} saw each event once`);
              }
            });
          }
        }
      }
    });

    t.test('a projection added to a running group replays the log while the others go on from theirs', async (t) => {
      const { eventStore, readModel, append, differences } = await world(t, adapter);
      const [first, second, added] = [tally('first'), tally('second'), tally('added')];
      for (let i = 0; i < 5; i += 1) await append(`s-${i}`, 'X', 1 + (i % 2));
      const before = runProjections([first, second], eventStore, readModel, quiet, { batchSize: 2 });
      t.ok(await before[0]!.waitFor((await eventStore.headPosition()) ?? 0, 10_000));
      await append('while-running', 'X', 2);
      await before[0]!.stop();
      // The service restarts with one projection more, while writes go on.
      const after = runProjections([first, second, added], eventStore, readModel, quiet, { batchSize: 2 });
      for (let i = 0; i < 4; i += 1) await append(`later-${i}`, 'X', 1 + (i % 2));
      const head = (await eventStore.headPosition()) ?? 0;
      t.ok((await Promise.all(after.map((r) => r.waitFor(head, 10_000)))).every(Boolean), 'all three reach the head');
      await after[0]!.stop();
      for (const projection of [first, second, added]) {
        t.equal(await readModel.getCheckpoint(projection.name), head);
        t.same(await differences(projection), [], `${projection.name} is exactly what the log says`);
        t.same(await readModel.get(projection.name, 'total'), { id: 'total', events: head, last: head }, `${projection.name} saw each event once`);
      }
    });

    t.test('a projection started over while its group waits for events replays the log without one more write', async (t) => {
      const { eventStore, readModel, append, differences } = await world(t, adapter);
      const [first, second] = [tally('first'), tally('second')];
      for (let i = 0; i < 5; i += 1) await append(`s-${i}`, 'X', 1 + (i % 2));
      const head = (await eventStore.headPosition()) ?? 0;
      const running = runProjections([first, second], eventStore, readModel, quiet, { batchSize: 2, checkpointWatchMs: 50 });
      t.ok((await Promise.all(running.map((r) => r.waitFor(head, 10_000)))).every(Boolean), 'both caught up');
      // `matchlog rebuild --start-over first` from another process, with nothing appended after it.
      await readModel.reset('first', ['first']);
      const deadline = Date.now() + 10_000;
      while ((await readModel.getCheckpoint('first')) !== head && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await running[0]!.stop();
      t.equal(await readModel.getCheckpoint('first'), head, 'the started-over projection is back at the head');
      t.same(await readModel.get('first', 'total'), { id: 'total', events: head, last: head }, 'having applied each event once since');
      t.same(await differences(first), [], 'and is exactly what the log says');
      t.same(await readModel.get('second', 'total'), { id: 'total', events: head, last: head }, 'the other saw each event once');
    });

    t.test('a waitFor asked before the stored checkpoint is read resolves from it', async (t) => {
      const { readModel, eventStore, append } = await world(t, adapter);
      for (let i = 0; i < 4; i += 1) await append(`s-${i}`, 'X', 2);
      await readModel.commit('stored', [], 8, null);
      const [running] = runProjections([counter('stored')], eventStore, readModel, quiet);
      t.ok(await running!.waitFor(8, 5_000), 'the stored checkpoint 8 reaches a waiter for 8');
      await running!.stop();
      t.equal(await readModel.count('stored'), 0, 'and no event was applied again');
    });
  });
}

t.test('a long share lets the event loop turn before the next projection applies the batch', async (t) => {
  const { eventStore, readModel, append } = await world(t, adapters[0]!);
  const order: string[] = [];
  /** Busy for `ms` on each event, then asks for a turn of the event loop. */
  const busy = (name: string, ms: number): Projection => ({
    name,
    collections: [name],
    indexes: [],
    async apply(event, view) {
      order.push(`${name} applies`);
      const until = performance.now() + ms;
      while (performance.now() < until);
      setImmediate(() => order.push(`turn after ${name}`));
      view.put(name, { id: String(event.position) });
    },
  });
  await append('s-1', 'X');
  const running = runProjections([busy('slow', 30), busy('quick', 0)], eventStore, readModel, quiet, { batchSize: 1 });
  t.ok(await running[0]!.waitFor(1, 10_000));
  await running[0]!.stop();
  t.same(order.slice(0, 2), ['slow applies', 'turn after slow'], 'the event loop turned between the slow share and the next');
  t.equal(await readModel.count('quick'), 1, 'and the next still applied the batch, committed with it');
});
