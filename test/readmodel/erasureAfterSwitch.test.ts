import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { MongoClient } from 'mongodb';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import type { ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { tempDataDir } from '../helpers/testApp.js';

const MARKER = 'erase-me-7f3a91c2';
const doc = (version: number) => ({ id: 'm1', note: `${MARKER} v${version}` });

/**
 * A match projected, rebuilt (promote), started over (reset) and projected again, then erased
 * as a projection erases it (a delete) and the erasure's clean-up (dropDeletedBytes): what the
 * switches left behind must not keep it (issue 58, N2: MongoDB kept it in retired collections).
 */
async function eraseAfterSwitches(store: ReadModelStore) {
  await store.commit('p', [{ collection: 'items', id: 'm1', doc: doc(1), position: 1 }], 1, null);
  // A rebuild: staged, then promoted; the first live collection is retired.
  await store.reset('p__rebuild', ['items__rebuild']);
  await store.commit('p__rebuild', [{ collection: 'items__rebuild', id: 'm1', doc: doc(1), position: 1 }], 1, null);
  await store.promote('p', { projection: 'p__rebuild', collections: [{ live: 'items', staged: 'items__rebuild' }] });
  await store.commit('p', [{ collection: 'items', id: 'm1', doc: doc(2), position: 2 }], 2, 1);
  // A start-over: the rebuilt collection is retired, and the worker replays into the new one.
  await store.reset('p', ['items']);
  await store.commit('p', [{ collection: 'items', id: 'm1', doc: doc(2), position: 2 }], 2, null);
  // The erasure.
  await store.commit('p', [{ collection: 'items', id: 'm1', doc: null, position: 3 }], 3, 2);
  await store.dropDeletedBytes();
}

t.test('sqlite: after a rebuild and a start-over, an erasure leaves the match in no table and no byte of the file', async (t: Test) => {
  const file = join(tempDataDir(t), 'readmodel.sqlite');
  const store = openSqliteReadModel(file);
  t.teardown(() => store.close());
  await eraseAfterSwitches(store);
  t.equal(await store.get('items', 'm1'), null, 'erased from the live table');
  for (const name of [file, `${file}-wal`]) {
    if (existsSync(name)) t.notOk(readFileSync(name).includes(MARKER), `${name}: the marker is gone`);
  }
});

const url = testMongoUrl(t, 'matchlog_erase_switch');
t.test('mongodb: after a rebuild and a start-over, an erasure leaves the match in no collection', { skip: url === null ? NO_MONGODB : false }, async (t) => {
  const store = await openMongoReadModel(url ?? '');
  const client = new MongoClient(url ?? '');
  t.teardown(async () => {
    await store.close();
    await client.close();
  });
  await eraseAfterSwitches(store);
  t.equal(await store.get('items', 'm1'), null, 'erased from the live collection');
  const db = client.db();
  const holding: string[] = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    const docs = await db.collection(name).find({}).toArray();
    if (JSON.stringify(docs).includes(MARKER)) holding.push(name);
  }
  t.same(holding, [], 'no collection holds the erased match');
});
