import type { EventStore } from '../eventstore/eventStore.js';
import { openWebhookStore } from '../webhooks/openWebhookStore.js';
import { startWebhookDispatch, type DispatchLog } from '../webhooks/webhookDispatch.js';
import { startWebhookQueue } from '../webhooks/webhookQueue.js';
import type { Config } from './config.js';
import { opening } from './startupFailure.js';

/**
 * The webhooks' store (src/webhooks/openWebhookStore.ts: DATA_DIR/webhooks.sqlite, or the
 * MongoDB read-model database), which the dashboard edits, and, where this process runs the
 * projections (an API process with RUN_PROJECTIONS, or the `matchlog projections` worker), the
 * queue that follows the log and the sender.
 */
export async function startWebhooks(
  config: Pick<Config, 'dataDir' | 'readModelUrl' | 'runProjections' | 'webhooks' | 'publicBaseUrl'>,
  eventStore: EventStore,
  writeTokenKey: Buffer,
  log: DispatchLog,
) {
  const store = await opening('the webhooks store', 'check READ_MODEL_URL and DATA_DIR, and that every process has the same WRITE_TOKEN_KEY', () =>
    openWebhookStore(config, writeTokenKey),
  );
  if (!config.runProjections) return { store, close: () => store.close() };
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
      await store.close();
    },
  };
}
