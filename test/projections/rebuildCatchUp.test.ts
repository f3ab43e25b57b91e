import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import type { EventStore } from '../../src/eventstore/eventStore.js';
import { collectionOf } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import type { Projection } from '../../projections/projection.js';
import { rebuildProjection } from '../../projections/replay.js';
import { tempDataDir } from '../helpers/testApp.js';

const counter: Projection = {
  name: 'counter',
  collections: ['counter'],
  indexes: [],
  async apply(_event, view) {
    const total = await view.get(collectionOf<{ id: string; events: number }>('counter'), 'total');
    view.put('counter', { id: 'total', events: (total?.events ?? 0) + 1 });
  },
};

t.test('a rebuild catches up to the log as it is when it switches, and says when what it switched in was current', async (t) => {
  const dir = tempDataDir(t);
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'));
  const readModel = openSqliteReadModel(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await readModel.close();
    await eventStore.close();
  });
  const append = (count: number) =>
    eventStore.appendToStream(
      `s-${randomUUID()}`,
      Array.from({ length: count }, () => ({ id: randomUUID(), type: 'X', data: '{}', metadata: { schemaVersion: 1 } })),
      'any',
    );
  await append(20);
  // Uploads go on while the rebuild replays: the log grows during each of its first few reads.
  let reads = 0;
  const growing: EventStore = {
    ...eventStore,
    async readAll(options) {
      reads += 1;
      if (reads <= 3) await append(5);
      return eventStore.readAll(options);
    },
  };
  const before = Date.now();
  const result = await rebuildProjection(counter, growing, readModel);
  const head = (await eventStore.headPosition()) ?? 0;
  t.ok(head > 20, 'the log grew during the rebuild');
  t.equal(await readModel.getCheckpoint('counter'), head, 'the switched-in read model is at the log’s end');
  t.same(await readModel.get('counter', 'total'), { id: 'total', events: head }, 'and holds every event');
  t.equal(result.position, head);
  t.ok(result.currentAt.getTime() >= before && result.currentAt.getTime() <= Date.now(), 'it says when that was the log’s end');
});
