import t from 'tap';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

const MATCHES = 6;

t.test('deliveries pending when the server is killed with SIGKILL are sent after the restart: every event exactly once by webhook-id', async (t) => {
  const dataDir = tempDataDir(t);
  const env = { DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001' };
  const receiver = await startWebhookReceiver(t);
  // The endpoint is down at first: every delivery stays pending, retried.
  receiver.state.answer = () => 503;

  let server = await startServerProcess(env);
  t.teardown(() => {
    server.child.kill('SIGKILL');
  });
  await waitUntilReady(server.url);
  const club = await clubWithAppKey(server.url);
  const endpoint = await club.addEndpoint(receiver.url, ['match.synced', 'match.changed', 'match.final']);
  receiver.state.secrets = [endpoint.secret];
  for (let i = 1; i <= MATCHES / 2; i += 1) await club.upload(`restart-${i}`);
  await eventually('each tried and refused at least once', () => new Set(receiver.received.map((r) => r.id)).size === MATCHES / 2);

  // Uploads go on up to the kill, so some may not even be queued yet.
  for (let i = MATCHES / 2 + 1; i <= MATCHES; i += 1) await club.upload(`restart-${i}`);
  server.child.kill('SIGKILL');
  await server.exited;
  const triedBefore = new Set(receiver.received.map((r) => r.id)).size;

  receiver.state.answer = () => 200;
  server = await startServerProcess(env);
  await waitUntilReady(server.url);
  const acknowledged = await eventually('every event acknowledged', () => receiver.acknowledged().size === MATCHES && receiver.acknowledged(), 120_000);
  t.same([...acknowledged.values()], Array(MATCHES).fill(1), 'each webhook-id acknowledged exactly once');
  t.ok(
    receiver.received.every((r) => r.verified),
    'all verified with standardwebhooks, before and after the restart',
  );
  const matchIds = new Set(receiver.received.filter((r) => r.status === 200).map((r) => (JSON.parse(r.body) as { data: { matchId: string } }).data.matchId));
  t.equal(matchIds.size, MATCHES, 'one per match');
  t.comment(`${triedBefore} of ${MATCHES} events tried before the kill; ${receiver.received.length} requests in all`);

  // A further upload after the restart is the only new request: nothing acknowledged is sent again.
  const before = receiver.received.length;
  await club.upload('restart-1', { version: 2, base: server.url });
  await eventually('the change delivered', () => receiver.acknowledged().size === MATCHES + 1);
  t.equal(receiver.received.length, before + 1, 'one request more');
});
