import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';

/** Appends one event to the log named by argv and leaves the store open: the process should still exit. */
const store = openSqliteEventStore(process.argv[2]!);
const { position } = await store.appendToStream('a', [{ id: '00000000-0000-4000-8000-000000000001', type: 'Noted', data: '{}', metadata: { schemaVersion: 1 } }], 'any');
process.stdout.write(`appended at ${position}\n`);
