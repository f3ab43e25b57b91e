import { randomBytes } from 'node:crypto';
import t from 'tap';
import { createEsdbEventStore } from '../../src/eventstore/esdbEventStore.js';
import { webhookSettings } from '../../src/runtime/webhookSettings.js';
import { startWebhooks } from '../../src/runtime/webhooks.js';
import { openMongoWebhookStore } from '../../src/webhooks/mongoWebhookStore.js';
import { esdbMemoryServer } from '../helpers/esdbMemoryServer.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { clubPayload, createSyncWorld } from '../helpers/syncWorld.js';
import { tempDataDir } from '../helpers/testApp.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

const ALL = ['match.synced', 'match.changed', 'match.final', 'sync.flagged'] as const;
const quiet = { info: () => {}, warn: () => {} };

/**
 * The distributed engines' webhooks in one process: the log on EventStoreDB (the in-memory
 * stand-in for @eventstore/db-client, test/helpers/esdbMemoryServer.ts: no server can be
 * installed here), the webhooks' state in the MongoDB read-model database (FerretDB of
 * MONGODB_URL), an "API" store that adds the endpoint and a "worker" that queues and sends.
 */
async function world(t: Parameters<typeof createSyncWorld>[0]) {
  const url = testMongoUrl(t, 'matchlog_webhooks');
  if (url === null) throw new Error(NO_MONGODB);
  const server = esdbMemoryServer();
  const eventStore = createEsdbEventStore({ client: server.client, appendCredentials: { username: 'matchlog', password: 'pw' }, deadlineMs: 5000 });
  const sync = createSyncWorld(t, { eventStore });
  const club = await sync.club('Lakeside VC', ['U14 Girls']);
  const key = randomBytes(32);
  const api = await openMongoWebhookStore(url, key);
  t.teardown(() => api.close());
  const receiver = await startWebhookReceiver(t);
  const config = {
    dataDir: tempDataDir(t),
    readModelUrl: url,
    runProjections: true,
    publicBaseUrl: 'https://matchlog.example',
    ...webhookSettings({ WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001' }),
  };
  const running = new Set<{ close(): Promise<void> }>();
  t.teardown(async () => {
    for (const worker of running) await worker.close();
  });
  return {
    url,
    key,
    sync,
    club,
    api,
    receiver,
    /** A worker's webhooks, as `matchlog projections` starts them; `stop` closes them. */
    async startWorker() {
      const worker = await startWebhooks(config, eventStore, key, quiet);
      running.add(worker);
      // A first start begins at the log's head: endpoints get what happens after the queue first ran.
      await eventually("the worker's queue started", async () => (await worker.store.position()) !== null);
      return {
        store: worker.store,
        async stop() {
          running.delete(worker);
          await worker.close();
        },
      };
    },
    upload(id: string, status = 'live', withKey = true) {
      const payload = clubPayload(club.clubId, club.teamId, {
        id,
        edit: (body) => Object.assign(body, { status, venue: `Hall ${randomBytes(2).toString('hex')}` }),
      });
      return sync.upload(payload, { appKey: withKey ? club.key : null, via: 'PUT' });
    },
  };
}

const typeOf = (body: string) => (JSON.parse(body) as { type: string }).type;
const skip = process.env.MONGODB_URL ? false : NO_MONGODB;

t.test(
  'EventStoreDB log, MongoDB state: deliveries pending across a worker restart, and events logged while it was down, each acknowledged once',
  { skip },
  async (t) => {
    const w = await world(t);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const endpoint = await w.api.addEndpoint(w.club.clubId, w.receiver.url, ALL, secret, 5);
    w.receiver.state.secrets = [secret];
    w.receiver.state.answer = () => 503;
    let worker = await w.startWorker();

    await w.upload('dist-1');
    await w.upload('dist-1');
    await w.upload('dist-1', 'final');
    await w.upload('dist-2', 'live', false);
    await eventually('each of the four tried and refused', () => new Set(w.receiver.received.map((r) => r.id)).size === 4);
    await worker.stop();
    // While no worker runs, the log goes on: these are queued from the stored position when one starts again.
    await w.upload('dist-3');
    await w.upload('dist-3', 'final');

    w.receiver.state.answer = () => 200;
    worker = await w.startWorker();
    const acknowledged = await eventually('six events acknowledged', () => w.receiver.acknowledged().size === 6 && w.receiver.acknowledged());
    t.same([...acknowledged.values()], Array(6).fill(1), 'each webhook-id acknowledged exactly once');
    t.ok(
      w.receiver.received.every((r) => r.verified),
      'every request verifies with standardwebhooks',
    );
    const syncEvents = (await w.sync.log()).filter((e) => e.type.startsWith('ClubSync'));
    t.same(new Set(acknowledged.keys()), new Set(syncEvents.map((e) => e.id)), "the webhook-ids are the log's club sync events");
    const delivered = w.receiver.received.filter((r) => r.status === 200);
    const byMatch = (matchId: string) => delivered.filter((r) => r.body.includes(`"matchId":"${matchId}"`)).map((r) => typeOf(r.body));
    t.same(new Set(byMatch('dist-1')), new Set(['match.synced', 'match.changed', 'match.final']));
    t.same(byMatch('dist-2'), ['sync.flagged']);
    t.same(byMatch('dist-3').sort(), ['match.final', 'match.synced']);

    const log = await w.api.deliveries(endpoint?.endpointId ?? '', 50);
    t.equal(log.length, 6, 'the delivery log the dashboard reads lists six');
    t.ok(
      log.every((d) => d.state === 'delivered'),
      'all delivered',
    );

    // Read the whole log again (a crash after the deliveries were written, before the position moved): nothing new, nothing changed.
    await worker.stop();
    await w.api.rewind(0);
    const requests = w.receiver.received.length;
    worker = await w.startWorker();
    await w.upload('dist-4');
    await eventually('the next event delivered', () => w.receiver.acknowledged().size === 7);
    t.equal(w.receiver.received.length, requests + 1, 'one request more: the events read again were not queued again');
    const again = await w.api.deliveries(endpoint?.endpointId ?? '', 50);
    t.same(
      again.slice(1).map((d) => [d.eventId, d.type, d.attempts]),
      log.map((d) => [d.eventId, d.type, d.attempts]),
      'and each kept its type and attempts',
    );
  },
);

t.test('on MongoDB too: a 410 disables the endpoint, redeliver sends again with the same webhook-id, removing drops its log', { skip }, async (t) => {
  const w = await world(t);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const endpoint = await w.api.addEndpoint(w.club.clubId, w.receiver.url, ['match.synced', 'match.changed'], secret, 5);
  const endpointId = endpoint?.endpointId ?? '';
  w.receiver.state.secrets = [secret];
  await w.startWorker();
  await w.upload('gone-1');
  const [first] = await eventually('the first delivered', () => w.receiver.acknowledged().size === 1 && w.receiver.received);
  t.ok(await w.api.redeliver(endpointId, first?.id ?? ''), 'redeliver asked from the "API" store');
  const again = await eventually('sent again', () => w.receiver.received.length === 2 && w.receiver.received);
  t.equal(again[1]?.id, first?.id, 'the same webhook-id');
  t.equal(again[1]?.body, first?.body, 'the same body');

  w.receiver.state.answer = () => 410;
  await w.upload('gone-1');
  await eventually('the 410', () => w.receiver.received.length === 3);
  const disabled = await eventually('disabled', async () => {
    const found = await w.api.endpoint(w.club.clubId, endpointId);
    return found !== null && found.disabledAt !== null && found;
  });
  t.equal(disabled.disabledReason, 'the endpoint answered 410 Gone');
  await w.upload('gone-1');
  await w.upload('gone-2');
  const head = await w.sync.eventStore.headPosition();
  await eventually('the log read to its head', async () => (await w.api.position()) === head);
  t.equal(w.receiver.received.length, 3, 'nothing more is sent');
  t.equal((await w.api.deliveries(endpointId, 10)).length, 2, 'nor queued while it is disabled');

  t.ok(await w.api.removeEndpoint(w.club.clubId, endpointId));
  t.same(await w.api.deliveries(endpointId, 10), [], 'its delivery log went with it');
});

t.test('a process holding another write-token key cannot open the shared store: it says which setting to fix', { skip }, async (t) => {
  const w = await world(t);
  await t.rejects(openMongoWebhookStore(w.url, randomBytes(32)), {
    message: /sealed under another write-token key: give every API process and the projection worker the same WRITE_TOKEN_KEY/,
  });
  const again = await openMongoWebhookStore(w.url, w.key);
  await again.close();
  t.pass('the same key opens it');
});

t.test(
  'the MongoDB store without transactions: a batch written again changes nothing, and what a match was known as is asked as of an event',
  { skip },
  async (t) => {
    const url = testMongoUrl(t, 'matchlog_webhook_store') ?? '';
    const store = await openMongoWebhookStore(url, randomBytes(32));
    t.teardown(() => store.close());
    const clubId = '0123456789abcdef';
    const endpoint = await store.addEndpoint(clubId, 'https://hooks.example/', ALL, `whsec_${randomBytes(32).toString('base64')}`, 5);
    const endpointId = endpoint?.endpointId ?? '';
    const delivery = (eventId: string, body: string) => ({
      endpointId,
      eventId,
      matchId: 'm1',
      type: 'match.synced' as const,
      body,
      createdAt: '2026-11-28T10:00:00Z',
    });
    // Events at 10 (first sync), 20 (a change) and 30 (final), learnt in one batch.
    const learnt = { clubId, matchId: 'm1', memory: { synced: true, final: true }, syncedAt: 10, finalAt: 30 };
    await store.enqueue([delivery('e10', 'first')], [learnt], [], 30);
    t.same(await store.memory(clubId, 'm1', 10), { synced: false, final: false }, 'before the first sync: unknown');
    t.same(await store.memory(clubId, 'm1', 20), { synced: true, final: false }, 'before the change: synced');
    t.same(await store.memory(clubId, 'm1', 31), { synced: true, final: true }, 'after the final: both');

    // The same batch read again by a worker that crashed before moving the position.
    await store.rewind(0);
    await store.enqueue([delivery('e10', 'second')], [{ ...learnt, syncedAt: 10, finalAt: 30 }], [], 30);
    const [only] = await store.deliveries(endpointId, 10);
    t.equal(only?.body, 'first', 'the delivery already queued is left as it is');
    t.same(await store.memory(clubId, 'm1', 20), { synced: true, final: false }, 'what was known before each event is unchanged');
    await store.enqueue([delivery('e05', 'late')], [], [], 25);
    t.equal(await store.position(), 30, 'the position never moves back through enqueue');
    t.equal((await store.deliveries(endpointId, 10)).length, 1, 'and a batch behind it queues nothing');

    await store.enqueue([], [], ['m1'], 40);
    const [erased] = await store.deliveries(endpointId, 10);
    t.same(
      [erased?.state, erased?.body, erased?.lastError],
      ['failed', '{"erased":true}', 'match erased'],
      "an erased match's pending delivery fails, its body gone",
    );
    t.notOk(await store.redeliver(endpointId, 'e10'), 'and cannot be redelivered');
  },
);
