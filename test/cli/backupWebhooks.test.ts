import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runMatchlog } from '../helpers/cli.js';
import { type ServerProcess, startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

const stop = async (server: ServerProcess) => {
  server.child.kill('SIGTERM');
  await server.exited;
};

t.test(
  'backup and restore carry the webhooks: endpoints (their sealed secrets still sign), pending deliveries sent after the restore, and what the rollback undoes',
  async (t) => {
    const source = tempDataDir(t, 'matchlog-live-');
    const env = { DATA_DIR: source, WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001' };
    const receiver = await startWebhookReceiver(t);
    receiver.state.answer = () => 503;
    const live = await startServerProcess(env);
    t.teardown(() => stop(live));
    await waitUntilReady(live.url);
    const club = await clubWithAppKey(live.url);
    const kept = await club.addEndpoint(receiver.url, ['match.synced']);
    receiver.state.secrets = [kept.secret];
    await club.upload('backed-up-1');
    await club.upload('backed-up-2');
    await eventually('both tried and refused', () => new Set(receiver.received.map((r) => r.id)).size === 2);

    const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
    const taken = await runMatchlog(['backup', backup], env);
    t.equal(taken.code, 0, taken.stderr);
    t.match(taken.stdout, /^backed up \d+ events \(log head \d+\), the read models, the webhooks, the write-token key/m);
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8')) as { files: { name: string; role: string }[] };
    t.same(manifest.files.find((file) => file.role === 'webhooks')?.name, 'webhooks.sqlite', 'the manifest binds the file to its role');

    // After the backup: one endpoint added, the backed-up one removed.
    const added = await club.addEndpoint(`${receiver.url}/added`, ['match.final']);
    t.equal(added.status, 200);
    await club.client.get(`/dashboard/connect/webhooks/${kept.endpointId}`);
    t.equal((await club.client.post(`/dashboard/connect/webhooks/${kept.endpointId}/delete`, {})).statusCode, 303);
    await stop(live);

    const restoredDir = tempDataDir(t, 'matchlog-restored-');
    const restored = await runMatchlog(['restore', backup, '--previous', source], { ...env, DATA_DIR: restoredDir });
    t.equal(restored.code, 0, restored.stderr);
    t.match(restored.stdout, /^restored read models, webhooks, log, write-token key/m);
    t.match(restored.stdout, 'and the webhook endpoints go back to what they were:');
    t.match(restored.stdout, `webhook endpoint ${added.endpointId} (${receiver.url}/added), added after the backup, is gone: add it again`);
    t.match(restored.stdout, `webhook endpoint ${kept.endpointId} (${receiver.url}), removed after the backup, is back: remove it again`);

    receiver.state.answer = () => 200;
    const server = await startServerProcess({ ...env, DATA_DIR: restoredDir });
    t.teardown(() => stop(server));
    await waitUntilReady(server.url);
    const acknowledged = await eventually('the deliveries pending at the backup sent', () => receiver.acknowledged().size === 2 && receiver.acknowledged());
    t.same([...acknowledged.values()], [1, 1], 'each once');
    t.ok(
      receiver.received.every((r) => r.verified),
      'signed with the secret shown before the backup: the sealed secret opens under the restored key',
    );
  },
);

t.test('a manifest naming the webhooks file for another role is refused, and nothing is restored', async (t) => {
  const source = tempDataDir(t, 'matchlog-live-');
  const live = await startServerProcess({ DATA_DIR: source });
  await waitUntilReady(live.url);
  await stop(live);
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  t.equal((await runMatchlog(['backup', backup], { DATA_DIR: source })).code, 0);
  const swapped = join(tempDataDir(t, 'matchlog-swapped-'), 'backup');
  cpSync(backup, swapped, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(swapped, 'manifest.json'), 'utf8')) as { files: { name: string; role: string }[] };
  const webhooks = manifest.files.find((file) => file.role === 'webhooks');
  const readModels = manifest.files.find((file) => file.role === 'read models');
  if (webhooks === undefined || readModels === undefined) throw new Error('the backup holds the webhooks and the read models');
  [webhooks.name, readModels.name] = [readModels.name, webhooks.name];
  writeFileSync(join(swapped, 'manifest.json'), JSON.stringify(manifest));
  const target = tempDataDir(t, 'matchlog-target-');
  const refused = await runMatchlog(['restore', swapped], { DATA_DIR: target });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^matchlog restore: refused: the manifest names (readmodel|webhooks)\.sqlite as the (webhooks|read models), which is always /);
  t.same(readdirSync(target), [], 'nothing restored');
});
