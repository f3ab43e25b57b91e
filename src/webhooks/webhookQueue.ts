import type { Position } from '../domain/logPosition.js';
import { summarizeMatchText } from '../domain/matchPayload.js';
import { decodeClubSyncEvent, decodeMatchErased, decodeMatchEvent, isMatchEventType } from '../domain/matchEvents.js';
import { matchIdOfStream } from '../domain/matchId.js';
import { type MessageLinks, webhookBody, webhookEventOf } from '../domain/webhookEvents.js';
import type { AllSubscription, EventStore, RecordedEvent } from '../eventstore/eventStore.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';
import type { LearntMemory, NewDelivery, WebhookStore } from './webhookStore.js';

export interface WebhookQueueDeps {
  eventStore: Pick<EventStore, 'subscribeToAll' | 'readStream' | 'headPosition'>;
  store: WebhookStore;
  links: (matchId: string) => MessageLinks;
  /** Called after deliveries were queued, so the sender looks at once. */
  onQueued: () => void;
  onError: (error: unknown) => void;
}

/** After a failure (an unreadable event, the store gone), the queue reads on from its position after this. */
const RETRY_MS = 1000;
/**
 * A batch that queues nothing (no club with an endpoint synced in it: nearly every batch) moves
 * the position in memory only, saved at most this often and at close: a commit per batch was a
 * tenth of the write path's CPU and an fsync on its event loop. After a crash the events since are
 * read again, which queues what they queue once (one delivery per endpoint and event id).
 */
const POSITION_SAVE_MS = 5000;

type Summary = ReturnType<typeof summarizeMatchText>;

/** The version a sync outcome belongs to: the match event appended just before it. */
async function versionBefore(deps: WebhookQueueDeps, event: RecordedEvent, inBatch: Map<string, RecordedEvent>): Promise<Summary | null> {
  const version = inBatch.get(event.streamId) ?? (await deps.eventStore.readStream(event.streamId, { fromRevision: event.revision - 1, maxCount: 1 }))[0];
  if (version === undefined || version.erased || !isMatchEventType(version.type)) return null;
  const decoded = decodeMatchEvent(version.type, version.data);
  return decoded === null ? null : summarizeMatchText(decoded.data.payload);
}

/** What a batch of log events gives the webhooks: deliveries, what was learnt of the clubs' matches, and matches erased. */
async function queueBatch(deps: WebhookQueueDeps, events: RecordedEvent[]) {
  const { store } = deps;
  const deliveries: NewDelivery[] = [];
  const memories = new Map<string, LearntMemory>();
  const erased: string[] = [];
  const versions = new Map<string, RecordedEvent>();
  for (const event of events) {
    const matchId = matchIdOfStream(event.streamId);
    if (matchId === null || event.erased) continue;
    if (isMatchEventType(event.type)) {
      versions.set(event.streamId, event);
      continue;
    }
    if (decodeMatchErased(event.type, event.data) !== null) {
      erased.push(matchId);
      continue;
    }
    const sync = decodeClubSyncEvent(event.type, event.data);
    // A club with no endpoint costs nothing more: its matches are remembered from its first endpoint on.
    if (sync === null || (await store.endpoints(sync.data.clubId)).length === 0) continue;
    const { clubId } = sync.data;
    const key = `${clubId}\u0000${matchId}`;
    const summary = await versionBefore(deps, event, versions);
    const learnt = memories.get(key) ?? { clubId, matchId, memory: await store.memory(clubId, matchId, event.position), syncedAt: null, finalAt: null };
    const { type, memory } = webhookEventOf(sync, summary?.status ?? null, learnt.memory);
    memories.set(key, {
      ...learnt,
      memory,
      syncedAt: learnt.syncedAt ?? (memory.synced && !learnt.memory.synced ? event.position : null),
      finalAt: learnt.finalAt ?? (memory.final && !learnt.memory.final ? event.position : null),
    });
    const body = webhookBody(type, { sync, recordedAt: event.recordedAt, revision: event.revision }, summary, deps.links(matchId));
    for (const endpoint of await store.subscribers(clubId, type, event.recordedAt)) {
      deliveries.push({ endpointId: endpoint.endpointId, eventId: event.id, matchId, type, body, createdAt: event.recordedAt });
    }
  }
  return { deliveries, memories: [...memories.values()], erased };
}

/**
 * Follows the log from the position the webhook store holds and queues a delivery for each club
 * sync outcome an endpoint subscribes to. The new position is committed with the deliveries
 * (in one transaction on SQLite) or after them (MongoDB), so after a crash the queue goes on
 * from the last batch it committed: no event is lost, and one read again is not queued twice
 * (one delivery per endpoint and event id).
 * On a store with no position yet, it starts at the log's head: endpoints get what happens after they exist.
 */
export function startWebhookQueue(deps: WebhookQueueDeps) {
  let closed = false;
  // A holder, not a variable: the loop and close() both reach the subscription of the moment.
  const current: { subscription: AllSubscription | null } = { subscription: null };
  const pause = wakeableSleep();
  /** The position of the last batch read, when it is not saved yet, and when a position last was. */
  let unsaved: Position | null = null;
  let savedAt = Date.now();

  async function follow() {
    let after: Position | null = await deps.store.position();
    const head = await deps.eventStore.headPosition();
    if (after === null) {
      after = head;
      if (after !== null) await deps.store.enqueue([], [], [], after);
    } else if (head === null || after > head) {
      // The log is behind what was read (restored from an older backup): read on from its head, or new events would be skipped.
      after = head;
      await deps.store.rewind(after);
    }
    const subscription = deps.eventStore.subscribeToAll({ after });
    current.subscription = subscription;
    for await (const item of subscription) {
      if (closed) return;
      if (item.kind !== 'events' || item.events.length === 0) continue;
      const last = item.events.at(-1);
      if (last === undefined) continue;
      const { deliveries, memories, erased } = await queueBatch(deps, item.events);
      if (deliveries.length + memories.length + erased.length === 0 && Date.now() - savedAt < POSITION_SAVE_MS) {
        unsaved = last.position;
        continue;
      }
      await deps.store.enqueue(deliveries, memories, erased, last.position);
      unsaved = null;
      savedAt = Date.now();
      if (deliveries.length > 0) deps.onQueued();
    }
  }

  const running = (async () => {
    while (!closed) {
      try {
        await follow();
      } catch (error) {
        if (!closed) deps.onError(error);
      }
      await current.subscription?.close();
      if (!closed) await pause.sleep(RETRY_MS);
    }
  })();

  return {
    async close() {
      closed = true;
      pause.wake();
      await current.subscription?.close();
      await running;
      if (unsaved !== null) await deps.store.enqueue([], [], [], unsaved);
    },
  };
}
