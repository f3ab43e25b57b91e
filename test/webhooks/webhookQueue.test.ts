import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { startWebhookQueue } from '../../src/webhooks/webhookQueue.js';
import { openSqliteWebhookStore } from '../../src/webhooks/sqliteWebhookStore.js';
import { clubPayload, createSyncWorld } from '../helpers/syncWorld.js';
import { tempDataDir } from '../helpers/testApp.js';
import { eventually } from '../helpers/webhookReceiver.js';

const links = (matchId: string) => ({ matchUrl: `https://m.test/match/${matchId}`, apiUrl: `https://m.test/api/matches/${matchId}` });

t.test('a log restored behind the queue: the queue reads on from its head, so the events after it are queued, not skipped', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'before' }), { appKey: club.key });
  const head = (await world.log()).at(-1)?.position ?? 0;
  const store = openSqliteWebhookStore(join(tempDataDir(t), 'webhooks.sqlite'), randomBytes(32));
  t.teardown(() => store.close());
  await store.addEndpoint(club.clubId, 'https://hooks.lakeside.example/', ['match.synced', 'match.final'], `whsec_${randomBytes(32).toString('base64')}`, 5);
  // The webhooks read further than this log goes: it came back from an older backup.
  await store.enqueue([], [], [], head + 50);

  const queue = startWebhookQueue({ eventStore: world.eventStore, store, links, onQueued: () => {}, onError: (error) => t.error(error) });
  t.teardown(() => queue.close());
  await eventually('the position back at the head', async () => (await store.position()) === head);
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'after' }), { appKey: club.key });
  const [endpoint] = await store.endpoints(club.clubId);
  const queued = await eventually('the new sync queued', async () => {
    const deliveries = await store.deliveries(endpoint?.endpointId ?? '', 10);
    return deliveries.length === 1 && deliveries;
  });
  t.equal(queued[0]?.matchId, 'after');
  t.equal(queued[0]?.type, 'match.final', 'the generated match is final');
  t.ok(((await store.position()) ?? 0) > head, 'and the position moves on');
});

t.test('batches that queue nothing move the position in memory only: the next batch that queues saves it', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Quiet Harbour VC');
  const store = openSqliteWebhookStore(join(tempDataDir(t), 'webhooks.sqlite'), randomBytes(32));
  t.teardown(() => store.close());
  const saved: { position: number; deliveries: number }[] = [];
  const counted = {
    ...store,
    enqueue: async (...args: Parameters<typeof store.enqueue>) => {
      saved.push({ position: args[3], deliveries: args[0].length });
      return store.enqueue(...args);
    },
  };
  const queue = startWebhookQueue({ eventStore: world.eventStore, store: counted, links, onQueued: () => {}, onError: (error) => t.error(error) });
  t.teardown(() => queue.close());
  await eventually('the queue started at the head', async () => saved.length === 1);
  for (let i = 0; i < 6; i += 1) await world.upload(clubPayload(club.clubId, club.teamId, { id: `quiet-${i}` }), { appKey: club.key });
  await store.addEndpoint(club.clubId, 'https://hooks.harbour.example/', ['match.final'], `whsec_${randomBytes(32).toString('base64')}`, 5);
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'heard' }), { appKey: club.key });
  const head = (await world.log()).at(-1)?.position ?? 0;
  await eventually('the synced match after the endpoint queued', async () => (await store.position()) === head);
  // Six uploads, each its own batch or more; a save every 5 s may fall among them on a slow machine.
  t.ok(saved.length <= 3, `saved ${saved.length} times: when the queue started, perhaps once on time, and with the batch that queued`);
  t.equal(saved.at(-1)?.deliveries, 1, 'the last save is the batch that queued the delivery');
  const before = saved.length;
  await queue.close();
  t.equal(saved.length, before, 'nothing left to save at close');
});
