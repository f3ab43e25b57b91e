import { retryDelayMs } from '../domain/webhookSchedule.js';
import { signatureHeader } from '../domain/webhookSignature.js';
import type { AllowedAddresses } from '../domain/webhookAddress.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';
import { type SendOutcome, sendWebhook } from './webhookSender.js';
import type { DueDelivery, WebhookStore } from './webhookStore.js';

export interface DispatchSettings {
  timeoutMs: number;
  allowed: AllowedAddresses;
  /** Deliveries in flight at once, over every endpoint (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** WEBHOOK_RETRY_SCALE: the retry schedule multiplied by it (1 in production). */
  retryScale: number;
}

export interface DispatchLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Other processes may queue deliveries (or free leases): the store is looked at at least this often. */
const POLL_MS = 1000;
/** A lease outlives its attempt by this, so a crashed sender's delivery is taken up again soon after. */
const LEASE_MARGIN_MS = 5000;
/** Deliveries done are kept this long in the delivery log (docs/limits.md), pruned hourly. */
const DELIVERIES_KEPT_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The Standard Webhooks headers for one attempt: the id is the log event's, the timestamp the attempt's. */
function webhookHeaders(delivery: Pick<DueDelivery, 'eventId' | 'secrets' | 'body'>, at: Date): Record<string, string> {
  return {
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(delivery.secrets, delivery.eventId, at, delivery.body),
  };
}

const describe = (outcome: SendOutcome) =>
  outcome.status === null ? outcome.error : `answered ${outcome.status}${outcome.answer === '' ? '' : `: ${outcome.answer.slice(0, 200)}`}`;

/**
 * Sends due deliveries, at most `concurrency` at once: a 2xx delivers, a 410 disables the
 * endpoint, anything else is tried again on the Standard Webhooks schedule with jitter
 * (src/domain/webhookSchedule.ts) until it is over. A delivery is leased before it is sent and
 * marked once the endpoint answered, so a crash in between sends it again (the same webhook-id:
 * receivers skip an id they have seen, as Standard Webhooks asks); no other case sends one twice.
 */
export function startWebhookDispatch(store: WebhookStore, settings: DispatchSettings, log: DispatchLog) {
  let closed = false;
  const inFlight = new Set<Promise<void>>();
  const wait = wakeableSleep();

  async function attempt(delivery: DueDelivery) {
    const outcome = await sendWebhook(delivery.url, webhookHeaders(delivery, new Date()), delivery.body, settings);
    const status = outcome.status;
    const delivered = status !== null && status >= 200 && status < 300;
    const fields = { endpointId: delivery.endpointId, webhookId: delivery.eventId, type: delivery.type, status, attempt: delivery.attempts + 1 };
    if (status === 410) {
      await store.setEnabled(delivery.clubId, delivery.endpointId, false, 'the endpoint answered 410 Gone');
      await store.recordAttempt(delivery, { delivered: false, status, error: describe(outcome), retryAt: null });
      log.warn(fields, 'webhook endpoint answered 410 Gone: disabled');
      return;
    }
    const delay = delivered ? null : retryDelayMs(delivery.attempts + 1, settings.retryScale, Math.random());
    await store.recordAttempt(delivery, {
      delivered,
      status,
      error: delivered ? null : describe(outcome),
      retryAt: delay === null ? null : Date.now() + delay,
    });
    if (!delivered) log.warn({ ...fields, error: describe(outcome), retryInMs: delay }, 'webhook not delivered');
  }

  let prunedAt = 0;
  async function pass() {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await store.prune(new Date(prunedAt - DELIVERIES_KEPT_MS).toISOString());
    }
    const free = settings.concurrency - inFlight.size;
    const claimed = free > 0 ? await store.claimDue(free, Date.now() + settings.timeoutMs + LEASE_MARGIN_MS) : [];
    for (const delivery of claimed) {
      const sending: Promise<void> = attempt(delivery)
        .catch((error: unknown) => log.warn({ err: error, webhookId: delivery.eventId }, 'webhook attempt failed'))
        .finally(() => {
          inFlight.delete(sending);
          wait.wake();
        });
      inFlight.add(sending);
    }
    if (claimed.length > 0 && claimed.length === free) return 0;
    const next = await store.nextDueAt();
    return next === null ? POLL_MS : Math.min(POLL_MS, Math.max(10, next - Date.now()));
  }

  const running = (async () => {
    while (!closed) {
      let pauseMs: number;
      try {
        pauseMs = await pass();
      } catch (error) {
        // The store out of reach (MongoDB restarting): looked at again after a poll's wait.
        log.warn({ err: error }, 'webhooks: the store could not be read; trying again in a second');
        pauseMs = POLL_MS;
      }
      if (pauseMs > 0) await wait.sleep(pauseMs);
    }
  })();

  return {
    /** Looks for due deliveries now (new ones were queued). */
    wake: () => wait.wake(),
    async close() {
      closed = true;
      wait.wake();
      await running;
      await Promise.all(inFlight);
    },
  };
}
