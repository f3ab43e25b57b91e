import { join } from 'node:path';
import type { EventStore } from '../eventstore/eventStore.js';
import { startWebhookDispatch, type DispatchLog } from '../webhooks/webhookDispatch.js';
import { startWebhookQueue } from '../webhooks/webhookQueue.js';
import { openWebhookStore } from '../webhooks/webhookStore.js';
import type { Config } from './config.js';

/**
 * The webhooks' store (DATA_DIR/webhooks.sqlite), which the dashboard edits, and, where this
 * process runs the projections, the queue that follows the log and the sender.
 */
export function startWebhooks(
  config: Pick<Config, 'dataDir' | 'runProjections' | 'webhooks' | 'publicBaseUrl'>,
  eventStore: EventStore,
  writeTokenKey: Buffer,
  log: DispatchLog,
) {
  const store = openWebhookStore(join(config.dataDir, 'webhooks.sqlite'), writeTokenKey);
  if (!config.runProjections) return { store, close: async () => store.close() };
  const dispatch = startWebhookDispatch(store, config.webhooks, log);
  const queue = startWebhookQueue({
    eventStore,
    store,
    links: (matchId) => ({
      matchUrl: `${config.publicBaseUrl}/match/${encodeURIComponent(matchId)}`,
      apiUrl: `${config.publicBaseUrl}/api/matches/${encodeURIComponent(matchId)}`,
    }),
    onQueued: dispatch.wake,
    onError: (error) => log.warn({ err: error }, 'webhooks: reading the log failed; reading on from the last position in a second'),
  });
  return {
    store,
    async close() {
      await queue.close();
      await dispatch.close();
      store.close();
    },
  };
}
