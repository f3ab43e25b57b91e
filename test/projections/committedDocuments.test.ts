import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { committedDocuments } from '../../projections/committedDocuments.js';
import type { Projection } from '../../projections/projection.js';
import { runProjections } from '../../projections/runner.js';
import { verifyProjection } from '../../projections/verify.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { collectionOf, type ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { tempDataDir } from '../helpers/testApp.js';

const quiet = { info: () => {}, error: () => {} };
const TOTALS = collectionOf<{ id: string; events: number; last: number }>('tallies');

/** Counts the events of each stream in one document: a document read stale shows in its count. */
const tally: Projection = {
  name: 'tally',
  collections: ['tallies'],
  indexes: [],
  reads: (event) => [{ collection: 'tallies', id: event.streamId }],
  async apply(event, view) {
    const total = await view.get(TOTALS, event.streamId);
    view.put('tallies', { id: event.streamId, events: (total?.events ?? 0) + 1, last: event.position });
  },
};

/** The store, with its document reads counted. */
function counted(store: ReadModelStore) {
  const reads = { documents: 0 };
  const reader: ReadModelStore = {
    ...store,
    get: async (collection, id) => {
      reads.documents += 1;
      return store.get(collection, id);
    },
    getMany: async (collection, ids) => {
      reads.documents += ids.length;
      return store.getMany(collection, ids);
    },
  };
  return { reader, reads };
}

async function world(t: Test) {
  const dir = tempDataDir(t);
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  const readModel = openSqliteReadModel(join(dir, 'read.sqlite'));
  const scratch = openSqliteReadModel(join(dir, 'scratch.sqlite'));
  t.teardown(async () => {
    await scratch.close();
    await readModel.close();
    await eventStore.close();
  });
  const append = (stream: string) => eventStore.appendToStream(stream, [{ id: randomUUID(), type: 'X', data: '{}', metadata: { schemaVersion: 1 } }], 'any');
  const differences = async () => (await verifyProjection(tally, eventStore, readModel, scratch, 1)).differences;
  return { eventStore, readModel, append, differences };
}

t.test('what a commit wrote is read back kept, deletes included; past the bound, from the store', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const { reader, reads } = counted(store);
  // Room for two of these documents and the delete (43 and 8 bytes, roughly counted), not three.
  const documents = committedDocuments(reader, 90);
  const commits = [
    {
      projection: 'tally',
      changes: [
        { collection: 'tallies', id: 'a', doc: { id: 'a', events: 1, last: 1 }, position: 1 },
        { collection: 'tallies', id: 'b', doc: null, position: 1 },
        { collection: 'tallies', id: 'c', doc: { id: 'c', events: 1, last: 1 }, position: 1 },
      ],
      checkpoint: 1,
      expected: null,
    },
  ];
  await store.commitAll(commits);
  documents.committed(commits);
  t.same(await documents.reader.get(TOTALS, 'c'), { id: 'c', events: 1, last: 1 });
  t.equal(await documents.reader.get(TOTALS, 'b'), null, 'a delete is kept as no document');
  t.same([...(await documents.reader.getMany(TOTALS, ['b', 'c'])).keys()], ['c']);
  t.equal(reads.documents, 0, 'none of it read from the store');
  t.same(await documents.reader.get(TOTALS, 'a'), { id: 'a', events: 1, last: 1 }, 'the first, let go past the bound, is read from the store');
  t.equal(reads.documents, 1);
});

t.test('a document larger than a kept one may be is read from the store', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const { reader, reads } = counted(store);
  const documents = committedDocuments(reader, 1 << 24);
  const basis = 'x'.repeat(100_000);
  const commits = [{ projection: 'p', changes: [{ collection: 'bases', id: 'm', doc: { id: 'm', basis }, position: 1 }], checkpoint: 1, expected: null }];
  await store.commitAll(commits);
  documents.committed(commits);
  t.same(await documents.reader.get(collectionOf<{ id: string; basis: string }>('bases'), 'm'), { id: 'm', basis });
  t.equal(reads.documents, 1);
});

t.test('a pass keeping what it committed applies every event once, reading each document from the store once', async (t) => {
  const { eventStore, readModel, append, differences } = await world(t);
  const { reader, reads } = counted(readModel);
  const running = runProjections([tally], eventStore, reader, quiet, { keptDocumentBytes: 1 << 20, batchSize: 3 });
  for (let i = 0; i < 40; i += 1) await append(`s-${i % 4}`);
  const head = (await eventStore.headPosition()) ?? 0;
  t.ok(await running[0]!.waitFor(head, 10_000), 'caught up');
  await running[0]!.stop();
  t.same(await readModel.get(TOTALS, 's-1'), { id: 's-1', events: 10, last: 38 });
  t.same(await differences(), [], 'exactly what a replay of the log makes');
  t.ok(reads.documents <= 4, `one read per stream's document at most (${reads.documents})`);
});

t.test('after another process starts a projection over, its next pass keeps none of what the last one committed', async (t) => {
  const { eventStore, readModel, append, differences } = await world(t);
  for (let i = 0; i < 10; i += 1) await append('s-0');
  const running = runProjections([tally], eventStore, readModel, quiet, { keptDocumentBytes: 1 << 20, checkpointWatchMs: 50 });
  t.ok(await running[0]!.waitFor(10, 10_000), 'caught up');
  // `matchlog rebuild --start-over tally` from another process, then more uploads.
  await readModel.reset('tally', ['tallies']);
  for (let i = 0; i < 5; i += 1) await append('s-0');
  const deadline = Date.now() + 10_000;
  while ((await readModel.getCheckpoint('tally')) !== 15 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await running[0]!.stop();
  t.same(await readModel.get(TOTALS, 's-0'), { id: 's-0', events: 15, last: 15 }, 'counted from the log again, not from a kept document');
  t.same(await differences(), [], 'exactly what a replay of the log makes');
});
