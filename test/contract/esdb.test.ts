import { randomUUID } from 'node:crypto';
import t from 'tap';
import { AppendTooLargeError, ERASED_DATA } from '../../src/eventstore/eventStore.js';
import { SERVICE_STREAM_PREFIXES } from '../../src/eventstore/streamPrefixes.js';
import { createEsdbEventStore, openEsdbEventStore } from '../../src/eventstore/esdbEventStore.js';
import { esdbMemoryServer } from '../helpers/esdbMemoryServer.js';
import { eventStoreContract, eventStoreErasureContract } from './eventStoreContract.js';

/**
 * The event store contract on a real EventStoreDB / KurrentDB server, named by ESDB_URL
 * (e.g. esdb://127.0.0.1:2113?tls=false). The contract's streams are named `contract…`.
 */
const url = process.env.ESDB_URL;
const NO_ESDB =
  'ESDB_URL is not set: no EventStoreDB server can be installed on these machines, so this suite needs one started elsewhere ' +
  '(docker compose up eventstore; ESDB_URL=esdb://127.0.0.1:2113?tls=false)';

/**
 * The erasure contract runs here on the in-memory stand-in for @eventstore/db-client 6.2.1
 * (test/helpers/esdbMemoryServer.ts), NOT on a real EventStoreDB server: none can be installed on
 * these machines. With ESDB_URL it runs on the real server too (below).
 */
eventStoreErasureContract(t, 'esdb on the in-memory stand-in (not a real server)', async () => {
  const server = esdbMemoryServer();
  return {
    open: async () => createEsdbEventStore({ client: server.client, appendCredentials: { username: 'matchlog', password: 'pw' }, deadlineMs: 5000 }),
    storedBytes: async () => server.storedBytes(),
  };
});

if (!url) {
  t.test('esdb: event store contract', { skip: NO_ESDB }, async () => {});
  t.test('esdb: erase on a real server', { skip: NO_ESDB }, async () => {});
} else {
  eventStoreErasureContract(t, 'esdb on the real server of ESDB_URL', async () => ({
    open: async () => openEsdbEventStore(url),
    storedBytes: async () => null,
  }));
  const open = async () => openEsdbEventStore(url, { streamPrefixes: [...SERVICE_STREAM_PREFIXES, 'contract'] });
  // A prefix no stream has: the log as this store's reads and subscriptions see it is empty.
  const openEmpty = async () => openEsdbEventStore(url, { streamPrefixes: [`contract-empty${randomUUID().slice(0, 8)}-`] });
  eventStoreContract(t, 'esdb', open, openEmpty, 'sameRevision');

  t.test('esdb: an append above MaxAppendSize is refused whole, before it is sent', async (t) => {
    const store = openEsdbEventStore(url, { maxAppendBytes: 64 * 1024 });
    t.teardown(() => store.close());
    const stream = `contract${randomUUID().slice(0, 8)}-large`;
    const big = JSON.stringify({ text: 'x'.repeat(40 * 1024) });
    const event = () => ({ id: randomUUID(), type: 'Big', data: big, metadata: { schemaVersion: 1 } });
    await t.rejects(store.appendToStream(stream, [event(), event()], 'no_stream'), AppendTooLargeError);
    t.same(await store.readStream(stream), [], 'nothing of it was written');
  });

  t.test('esdb: a match is sealed with its own key, and erasing it tombstones the key: every version reads erased, in a new process too', async (t) => {
    const store = openEsdbEventStore(url, { deltas: { keyframeInterval: 4, cacheBytes: 1024 * 1024 } });
    t.teardown(() => store.close());
    const stream = `match-contract${randomUUID().slice(0, 8)}`;
    const versions = Array.from({ length: 9 }, (_, i) => ({
      id: randomUUID(),
      type: 'MatchReplaced',
      data: JSON.stringify({ i, name: 'Zoë', text: 'x'.repeat(2000 + i) }),
      metadata: { schemaVersion: 1 },
    }));
    for (const [i, event] of versions.entries()) await store.appendToStream(stream, [event], i === 0 ? 'no_stream' : i - 1);
    t.same(
      (await store.readStream(stream)).map((event) => event.data),
      versions.map((event) => event.data),
      'byte for byte before',
    );
    await store.erasePayloads(stream, [0, 1, 2]);
    const fresh = openEsdbEventStore(url);
    t.teardown(() => fresh.close());
    t.ok(
      (await fresh.readStream(stream)).every((event) => event.erased === true && event.data === ERASED_DATA),
      'erased after',
    );
  });
}
