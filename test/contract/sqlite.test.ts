import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { tempDataDir } from '../helpers/testApp.js';
import { eventStoreContract } from './eventStoreContract.js';
import { readModelContract } from './readModelContract.js';

const dir = tempDataDir(t);
eventStoreContract(
  t,
  'sqlite',
  async () => openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 }),
  async () => openSqliteEventStore(join(dir, `empty-${randomUUID()}.sqlite`), { pollIntervalMs: 50 }),
  'anyRevision',
);
readModelContract(t, 'sqlite', async () => openSqliteReadModel(join(dir, 'readmodel.sqlite')));
