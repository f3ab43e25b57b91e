import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { Collection, type FindOptions } from 'mongodb';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import { collectionOf } from '../../src/readmodel/readModel.js';
import type { Projection } from '../../projections/projection.js';
import { runProjection } from '../../projections/runner.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { tempDataDir } from '../helpers/testApp.js';

const quiet = { info() {}, error() {} };

/** Reads the event count back before writing it one further: a read-modify-write. */
const counter: Projection = {
  name: 'counter',
  collections: ['counter'],
  indexes: [],
  reads: () => [{ collection: 'counter', id: 'total' }],
  async apply(_event, view) {
    const total = await view.get(collectionOf<{ id: string; events: number }>('counter'), 'total');
    view.put('counter', { id: 'total', events: (total?.events ?? 0) + 1 });
  },
};

/** Every find on a read-model collection (findOne is a find), with the read preference it goes with. */
function recordReads(t: Parameters<typeof testMongoUrl>[0]) {
  const reads: { collection: string; mode: string }[] = [];
  const { find } = Collection.prototype;
  Collection.prototype.find = function (this: Collection, filter?: object, options?: FindOptions) {
    reads.push({ collection: this.collectionName, mode: String(options?.readPreference ?? this.readPreference?.mode) });
    return find.call(this, filter ?? {}, options);
  } as Collection['find'];
  t.teardown(() => {
    Collection.prototype.find = find;
  });
  return reads;
}

for (const access of ['mongodb', 'ferretdb'] as const) {
  t.test(
    `${access} access: a projection's read-modify-write reads go to the primary, whatever READ_MODEL_URL prefers`,
    { skip: process.env.MONGODB_URL ? false : NO_MONGODB },
    async (t) => {
      const base = testMongoUrl(t, 'matchlog_readpref') ?? '';
      const url = `${base}${base.includes('?') ? '&' : '?'}readPreference=secondaryPreferred`;
      const dir = tempDataDir(t);
      const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 10 });
      const readModel = await openMongoReadModel(url, { access });
      t.teardown(async () => {
        await readModel.close();
        await eventStore.close();
      });
      const reads = recordReads(t);
      for (let i = 0; i < 3; i += 1) {
        await eventStore.appendToStream(`s-${i}`, [{ id: randomUUID(), type: 'X', data: '{}', metadata: { schemaVersion: 1 } }], 'any');
      }
      const running = runProjection(counter, eventStore, readModel, quiet, { batchSize: 1 });
      t.ok(await running.waitFor((await eventStore.headPosition()) ?? 0, 10_000), 'caught up');
      await running.stop();
      const byProjection = reads.filter((read) => read.collection.startsWith('counter'));
      t.ok(byProjection.length >= 3, `${byProjection.length} reads of the projection's documents`);
      t.same(new Set(byProjection.map((read) => read.mode)), new Set(['primary']), 'every one from the primary');
      reads.length = 0;
      t.same(await readModel.get('counter', 'total'), { id: 'total', events: 3 });
      t.same(
        reads.filter((read) => read.collection.startsWith('counter')).map((read) => read.mode),
        ['secondaryPreferred'],
        "a reader's get follows the URL",
      );
    },
  );
}
