import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { tempDataDir } from '../helpers/testApp.js';

const indexesOf = (file: string, table: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table).length;
  } finally {
    db.close();
  }
};

t.test('a read model of the single-table layout is dropped on open, so the projections rebuild it', async (t) => {
  const file = join(tempDataDir(t), 'readmodel.sqlite');
  const old = new Database(file);
  old.exec(`CREATE TABLE documents (collection TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (collection, id));
            CREATE TABLE checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL);
            INSERT INTO documents VALUES ('publicView', 'a', '{"id":"a"}', 1);
            INSERT INTO checkpoints VALUES ('publicView', 1);`);
  old.close();
  const store = openSqliteReadModel(file);
  t.teardown(() => store.close());
  t.equal(await store.getCheckpoint('publicView'), null, 'the checkpoint is gone: the projection starts from the beginning of the log');
  t.equal(await store.get('publicView', 'a'), null);
  await store.commit('publicView', [{ collection: 'publicView', id: 'a', doc: { id: 'a', v: 2 }, position: 1 }], 1, null);
  t.same(await store.get('publicView', 'a'), { id: 'a', v: 2 });
});

t.test('indexes survive rebuilds, one per column list, however often the tables are switched', async (t) => {
  const file = join(tempDataDir(t), 'readmodel.sqlite');
  const store = openSqliteReadModel(file);
  t.teardown(() => store.close());
  const index = [{ collection: 'clubMatches', fields: ['clubId', 'startedAt'] }];
  await store.ensureIndexes(index);
  await store.ensureIndexes(index);
  t.equal(indexesOf(file, 'rm_clubMatches'), 1, 'ensureIndexes is idempotent');
  for (let i = 1; i <= 3; i += 1) {
    await store.reset('p__rebuild', ['clubMatches__rebuild']);
    await store.ensureIndexes([{ collection: 'clubMatches__rebuild', fields: ['clubId', 'startedAt'] }]);
    await store.commit('p__rebuild', [{ collection: 'clubMatches__rebuild', id: `m${i}`, doc: { id: `m${i}`, clubId: 'c' }, position: i }], i, null);
    await store.promote('p', { projection: 'p__rebuild', collections: [{ live: 'clubMatches', staged: 'clubMatches__rebuild' }] });
    t.equal(indexesOf(file, 'rm_clubMatches'), 1, `after switch ${i} the live table has its index, once`);
    t.same(
      (await store.find('clubMatches', { where: { clubId: 'c' } })).map((d) => d.id),
      [`m${i}`],
    );
  }
});

t.test('collection names are checked before they reach SQL', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  await t.rejects(store.get('x"; DROP TABLE checkpoints; --', 'a'), /invalid read-model collection name/);
});
