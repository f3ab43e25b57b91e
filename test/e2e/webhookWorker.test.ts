import t from 'tap';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';

const MATCHES = 4;

/**
 * The compose file's shape (docker-compose.yml): an API process with RUN_PROJECTIONS=no and a
 * `matchlog projections` worker sharing MongoDB read models (FerretDB of MONGODB_URL). The
 * dashboard on the API adds the endpoint; the worker queues and sends; the worker is killed
 * with SIGKILL with deliveries pending and started again. The log is SQLite in the shared
 * DATA_DIR: no EventStoreDB server can run here (test/webhooks/webhookDistributed.test.ts runs the
 * same store over the EventStoreDB stand-in).
 */
t.test(
  'API with RUN_PROJECTIONS=no and a worker on MongoDB: the worker sends; none lost or repeated across its SIGKILL; logged and redelivered on the API',
  {
    skip: process.env.MONGODB_URL ? false : NO_MONGODB,
  },
  async (t) => {
    const readModelUrl = testMongoUrl(t, 'matchlog_webhook_worker') ?? '';
    const env = {
      DATA_DIR: tempDataDir(t),
      READ_MODEL_URL: readModelUrl,
      RUN_PROJECTIONS: 'no',
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
      WEBHOOK_RETRY_SCALE: '0.001',
      READ_YOUR_WRITES_TIMEOUT_MS: '3000',
    };
    const receiver = await startWebhookReceiver(t);
    receiver.state.answer = () => 503;
    const api = await startServerProcess(env);
    let worker = await startWorkerProcess(env);
    t.teardown(() => {
      api.child.kill('SIGKILL');
      worker.child.kill('SIGKILL');
    });
    await waitUntilReady(api.url);
    // The worker's queue starts at the log's head the first time: wait for it before anything is logged.
    await eventually('the worker following the log', () => worker.output.some((line) => line.includes('projection worker started')));
    const club = await clubWithAppKey(api.url);
    const endpoint = await club.addEndpoint(receiver.url, ['match.synced', 'match.changed', 'match.final']);
    t.equal(endpoint.status, 200, 'the endpoint added on the API process');
    receiver.state.secrets = [endpoint.secret];

    for (let i = 1; i <= MATCHES / 2; i += 1) await club.upload(`worker-${i}`);
    await eventually('each tried and refused once', () => new Set(receiver.received.map((r) => r.id)).size === MATCHES / 2);
    for (let i = MATCHES / 2 + 1; i <= MATCHES; i += 1) await club.upload(`worker-${i}`);
    worker.child.kill('SIGKILL');
    await worker.exited;
    const triedBefore = new Set(receiver.received.map((r) => r.id)).size;

    receiver.state.answer = () => 200;
    worker = await startWorkerProcess(env);
    const acknowledged = await eventually('every event acknowledged', () => receiver.acknowledged().size === MATCHES && receiver.acknowledged(), 120_000);
    t.same([...acknowledged.values()], Array(MATCHES).fill(1), 'each webhook-id acknowledged exactly once');
    t.ok(
      receiver.received.every((r) => r.verified),
      'all verified with standardwebhooks, before and after the kill',
    );
    t.comment(`${triedBefore} of ${MATCHES} events tried before the kill; ${receiver.received.length} requests in all`);
    t.notOk(
      api.output.some((line) => line.includes('webhook not delivered')),
      'the API process sent none itself',
    );

    const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
    const page = await eventually('the delivery log on the API', async () => {
      const body = (await club.client.get(path)).body;
      return (body.match(/data-state="delivered"/g) ?? []).length === MATCHES && body;
    });
    const [first] = [...acknowledged.keys()];
    t.match(page, `data-webhook-id="${first}"`);
    const before = receiver.received.length;
    t.equal((await club.client.post(`${path}/deliveries/${first}/redeliver`, {})).statusCode, 303, 'redeliver asked on the API');
    const again = await eventually('sent again by the worker', () => receiver.received.length === before + 1 && receiver.received);
    t.equal(again.at(-1)?.id, first, 'with the same webhook-id');
    t.ok(again.at(-1)?.verified);

    receiver.state.answer = () => 410;
    await club.upload('worker-1', { version: 2 });
    const gone = await eventually('disabled after the 410', async () => {
      const body = (await club.client.get(path)).body;
      return body.includes('answered 410 Gone') && body;
    });
    t.match(gone, /disabled/);
  },
);
