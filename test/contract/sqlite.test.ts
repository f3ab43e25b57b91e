import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { tempDataDir } from '../helpers/testApp.js';
import { eventStoreContract, eventStoreErasureContract } from './eventStoreContract.js';
import { readModelContract, readModelErasureContract } from './readModelContract.js';

const dir = tempDataDir(t);
eventStoreContract(
  t,
  'sqlite',
  async () => openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 }),
  async () => openSqliteEventStore(join(dir, `empty-${randomUUID()}.sqlite`), { pollIntervalMs: 50 }),
  'anyRevision',
);
readModelContract(t, 'sqlite', async () => openSqliteReadModel(join(dir, 'readmodel.sqlite')));
eventStoreErasureContract(t, 'sqlite', async () => {
  // A log of its own: its files hold nothing but this world's.
  const file = join(dir, `erasure-${randomUUID()}.sqlite`);
  return {
    open: async () => openSqliteEventStore(file, { pollIntervalMs: 50 }),
    storedBytes: async () =>
      Buffer.concat(
        readdirSync(dir)
          .filter((name) => name.startsWith(file.slice(dir.length + 1)))
          .map((name) => readFileSync(join(dir, name))),
      ),
  };
});
readModelErasureContract(t, 'sqlite', async () => openSqliteReadModel(join(dir, `erasure-readmodel-${randomUUID()}.sqlite`)));
