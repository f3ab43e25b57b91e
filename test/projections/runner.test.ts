import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import type { Projection } from '../../projections/projection.js';
import { runProjections } from '../../projections/runner.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
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

async function world(t: { teardown(fn: () => void | Promise<void>): void }) {
  const dir = tempDataDir(t);
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  const readModel = openSqliteReadModel(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await readModel.close();
    await eventStore.close();
  });
  // Event ids are UUIDs in every store (src/eventstore/eventChecks.ts).
  const append = (stream: string, type: string) =>
    eventStore.appendToStream(stream, [{ id: randomUUID(), type, data: '{}', metadata: { schemaVersion: 1 } }], 'any');
  return { eventStore, readModel, append };
}

t.test('projections run together: every one sees every event once, and their checkpoints move in one commit', async (t) => {
  const { eventStore, readModel, append } = await world(t);
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
  const { eventStore, readModel, append } = await world(t);
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
  const { eventStore, readModel, append } = await world(t);
  let broken = true;
  const running = runProjections([counter('healthy'), counter('fragile', 'Poison', () => broken)], eventStore, readModel, quiet, { retryDelayMs: 20, maxRetryDelayMs: 40 });
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
