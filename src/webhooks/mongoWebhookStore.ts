import { randomBytes } from 'node:crypto';
import { type Binary, type Collection, MongoClient, MongoServerError } from 'mongodb';
import type { Position } from '../domain/logPosition.js';
import { isWebhookEventType, type WebhookEventType } from '../domain/webhookEvents.js';
import { databaseName } from '../readmodel/mongoReadModel.js';
import {
  type Delivery,
  type DeliveryState,
  type DueDelivery,
  ERASED_BODY,
  newEndpointId,
  secretSealer,
  signingSecrets,
  type WebhookEndpoint,
  type WebhookStore,
  type DashboardOperations,
  type QueueOperations,
  type SenderOperations,
} from './webhookStore.js';

interface EndpointDoc {
  _id: string;
  clubId: string;
  url: string;
  eventTypes: string[];
  createdAt: string;
  secret: Binary | Buffer;
  previousSecret: Binary | Buffer | null;
  previousSecretUntil: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}

/** A delivery as stored: its type as written (checked when read), and its lease. */
interface DeliveryDoc extends Omit<Delivery, 'type'> {
  /** `<endpoint id>:<event id>` (endpoint ids have one length): one delivery per endpoint and log event. */
  _id: string;
  type: string;
  leaseUntil: number;
}

/** What is known of a club's match: the positions of the events that first made it synced and final. */
interface MemoryDoc {
  _id: string;
  clubId: string;
  matchId: string;
  syncedAt?: Position;
  finalAt?: Position;
}

interface StateDoc {
  _id: 'position' | 'sealing-key';
  position?: Position | null;
  check?: string;
}

/** The collections, named apart from every projection's (they are not read models: nothing rebuilds them). */
const WEBHOOK_COLLECTIONS = {
  endpoints: 'webhook_endpoints',
  deliveries: 'webhook_deliveries',
  memories: 'webhook_club_matches',
  state: 'webhook_state',
} as const;

const DUPLICATE_KEY = 11000;
const bytes = (value: Binary | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer));
const deliveryKey = (endpointId: string, eventId: string) => `${endpointId}:${eventId}`;
/** Club ids have one length (src/domain/clubIds.ts). */
const memoryKey = (clubId: string, matchId: string) => `${clubId}:${matchId}`;

const endpointOf = (doc: EndpointDoc): WebhookEndpoint => ({
  endpointId: doc._id,
  clubId: doc.clubId,
  url: doc.url,
  eventTypes: doc.eventTypes.filter(isWebhookEventType),
  createdAt: doc.createdAt,
  previousSecretUntil: doc.previousSecretUntil,
  disabledAt: doc.disabledAt,
  disabledReason: doc.disabledReason,
});

const deliveryOf = (doc: DeliveryDoc): Delivery => ({
  endpointId: doc.endpointId,
  eventId: doc.eventId,
  matchId: doc.matchId,
  type: isWebhookEventType(doc.type) ? doc.type : 'match.changed',
  body: doc.body,
  createdAt: doc.createdAt,
  state: doc.state,
  attempts: doc.attempts,
  nextAttemptAt: doc.nextAttemptAt,
  lastAttemptAt: doc.lastAttemptAt,
  lastStatus: doc.lastStatus,
  lastError: doc.lastError,
});

/**
 * The webhooks' store in the MongoDB database of READ_MODEL_URL, for the distributed engines:
 * every API process (the dashboard) and the worker (queue and sender) reach the same endpoints
 * and deliveries. There are no multi-document transactions (FerretDB has none), so each write
 * is idempotent and the position moves last: a batch read again after a crash queues nothing
 * twice (the delivery's _id), and what it learnt of a match is kept as the positions of the
 * events that made it synced or final, so a replay asks what was known before each event and
 * classifies it as the first pass did. A lease is taken with one findOneAndUpdate.
 */
export async function openMongoWebhookStore(url: string, writeTokenKey: Buffer): Promise<WebhookStore> {
  const client = new MongoClient(url, { appName: 'matchlog-webhooks' });
  await client.connect();
  try {
    const db = client.db(databaseName(url));
    const endpointsOf = db.collection<EndpointDoc>(WEBHOOK_COLLECTIONS.endpoints);
    const deliveriesOf = db.collection<DeliveryDoc>(WEBHOOK_COLLECTIONS.deliveries);
    const memories = db.collection<MemoryDoc>(WEBHOOK_COLLECTIONS.memories);
    const state = db.collection<StateDoc>(WEBHOOK_COLLECTIONS.state);
    const secrets = secretSealer(writeTokenKey);
    await endpointsOf.createIndex({ clubId: 1, createdAt: 1 });
    await deliveriesOf.createIndex({ state: 1, nextAttemptAt: 1 });
    await deliveriesOf.createIndex({ endpointId: 1, createdAt: -1 });
    await deliveriesOf.createIndex({ matchId: 1 });
    await checkSealingKey(state, secrets.keyCheck, url);
    return mongoWebhookStore({ client, endpointsOf, deliveriesOf, memories, state, secrets });
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Every process sharing the store must seal with the same key, or the worker could not open
 * what an API process sealed: the first to open it records the key's check, the others compare.
 */
async function checkSealingKey(state: Collection<StateDoc>, check: string, url: string): Promise<void> {
  try {
    await state.updateOne({ _id: 'sealing-key' }, { $setOnInsert: { check } }, { upsert: true });
  } catch (error) {
    if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY) throw error;
  }
  const stored = await state.findOne({ _id: 'sealing-key' });
  if (stored?.check !== check) {
    throw new Error(
      `the webhook secrets in ${databaseName(url)} were sealed under another write-token key: ` +
        'give every API process and the projection worker the same WRITE_TOKEN_KEY',
    );
  }
}

interface Parts {
  client: MongoClient;
  endpointsOf: Collection<EndpointDoc>;
  deliveriesOf: Collection<DeliveryDoc>;
  memories: Collection<MemoryDoc>;
  state: Collection<StateDoc>;
  secrets: ReturnType<typeof secretSealer>;
}

/** A club's endpoints, oldest first. */
const clubEndpoints = async (endpointsOf: Collection<EndpointDoc>, clubId: string) =>
  (await endpointsOf.find({ clubId }).sort({ createdAt: 1, _id: 1 }).toArray()).map(endpointOf);
/** The ids of the endpoints disabled: their deliveries wait. */
const disabledIds = async (endpointsOf: Collection<EndpointDoc>) =>
  (await endpointsOf.find({ disabledAt: { $ne: null } }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);

function mongoWebhookStore(parts: Parts): WebhookStore {
  return {
    close: () => parts.client.close(),
    ...dashboardOperations(parts),
    ...queueOperations(parts),
    ...senderOperations(parts),
  };
}

/** The endpoints and their deliveries, as the club dashboard manages them. */
function dashboardOperations({ endpointsOf, deliveriesOf, secrets }: Parts): DashboardOperations {
  return {
    async addEndpoint(clubId, url, eventTypes, secret, maxPerClub) {
      // Counted, then inserted: two admins of one club adding at the same instant could pass the limit by one.
      if ((await endpointsOf.countDocuments({ clubId })) >= maxPerClub) return null;
      const endpointId = newEndpointId(randomBytes(9));
      const doc: EndpointDoc = {
        _id: endpointId,
        clubId,
        url,
        eventTypes: [...eventTypes],
        createdAt: new Date().toISOString(),
        secret: secrets.seal(endpointId, secret),
        previousSecret: null,
        previousSecretUntil: null,
        disabledAt: null,
        disabledReason: null,
      };
      await endpointsOf.insertOne(doc);
      return endpointOf(doc);
    },
    endpoints: (clubId) => clubEndpoints(endpointsOf, clubId),
    async endpoint(clubId, endpointId) {
      const doc = await endpointsOf.findOne({ _id: endpointId, clubId });
      return doc === null ? null : endpointOf(doc);
    },
    async rotateSecret(clubId, endpointId, secret, overlapUntil) {
      const doc = await endpointsOf.findOne({ _id: endpointId, clubId });
      if (doc === null) return false;
      await endpointsOf.updateOne(
        { _id: endpointId },
        { $set: { secret: secrets.seal(endpointId, secret), previousSecret: bytes(doc.secret), previousSecretUntil: overlapUntil } },
      );
      return true;
    },
    async setEnabled(clubId, endpointId, enabled, reason = null) {
      const at = enabled ? null : new Date().toISOString();
      return (await endpointsOf.updateOne({ _id: endpointId, clubId }, { $set: { disabledAt: at, disabledReason: reason } })).matchedCount === 1;
    },
    async removeEndpoint(clubId, endpointId) {
      const removed = (await endpointsOf.deleteOne({ _id: endpointId, clubId })).deletedCount === 1;
      if (removed) await deliveriesOf.deleteMany({ endpointId });
      return removed;
    },
    deliveries: async (endpointId, limit) =>
      (await deliveriesOf.find({ endpointId }).sort({ createdAt: -1, eventId: -1 }).limit(limit).toArray()).map(deliveryOf),
    async redeliver(endpointId, eventId) {
      const filter = { _id: deliveryKey(endpointId, eventId), body: { $ne: ERASED_BODY } };
      return (await deliveriesOf.updateOne(filter, { $set: { state: 'pending', nextAttemptAt: Date.now(), leaseUntil: 0 } })).matchedCount === 1;
    },
  };
}

/** The queue's side: the log position, what is known of each club's match, and the deliveries it queues. */
function queueOperations({ endpointsOf, deliveriesOf, memories, state }: Parts): QueueOperations {
  return {
    position: async () => (await state.findOne({ _id: 'position' }))?.position ?? null,
    async rewind(position) {
      await state.updateOne({ _id: 'position' }, { $set: { position } }, { upsert: true });
    },
    async memory(clubId, matchId, before) {
      const doc = await memories.findOne({ _id: memoryKey(clubId, matchId) });
      return { synced: doc?.syncedAt !== undefined && doc.syncedAt < before, final: doc?.finalAt !== undefined && doc.finalAt < before };
    },
    subscribers: async (clubId: string, type: WebhookEventType, recordedAt: string) =>
      (await clubEndpoints(endpointsOf, clubId)).filter(
        (endpoint) => endpoint.disabledAt === null && endpoint.createdAt <= recordedAt && endpoint.eventTypes.includes(type),
      ),
    /** Deliveries, then memories, then erasures, then the position: each step idempotent, so a crash anywhere is repaired by reading the batch again. */
    async enqueue(deliveries, learnt, erasedMatches, position) {
      const reached = (await state.findOne({ _id: 'position' }))?.position ?? null;
      if (reached !== null && position <= reached) return;
      const now = Date.now();
      if (deliveries.length > 0) {
        await deliveriesOf.bulkWrite(
          deliveries.map((d) => ({
            updateOne: {
              filter: { _id: deliveryKey(d.endpointId, d.eventId) },
              update: {
                $setOnInsert: {
                  ...d,
                  state: 'pending' as const,
                  attempts: 0,
                  nextAttemptAt: now,
                  leaseUntil: 0,
                  lastAttemptAt: null,
                  lastStatus: null,
                  lastError: null,
                },
              },
              upsert: true,
            },
          })),
          { ordered: false },
        );
      }
      for (const { clubId, matchId, syncedAt, finalAt } of learnt) {
        const first = { ...(syncedAt === null ? {} : { syncedAt }), ...(finalAt === null ? {} : { finalAt }) };
        if (Object.keys(first).length > 0)
          await memories.updateOne({ _id: memoryKey(clubId, matchId) }, { $set: { clubId, matchId }, $min: first }, { upsert: true });
      }
      for (const matchId of erasedMatches) {
        await deliveriesOf.updateMany({ matchId, state: 'pending' }, { $set: { state: 'failed', lastError: 'match erased' } });
        await deliveriesOf.updateMany({ matchId }, { $set: { body: ERASED_BODY } });
      }
      await state.updateOne({ _id: 'position' }, { $max: { position } }, { upsert: true });
    },
  };
}

/** The sender's side: the deliveries due, leased before they are sent, and what each attempt came to. */
function senderOperations({ endpointsOf, deliveriesOf, secrets }: Parts): SenderOperations {
  return {
    async claimDue(limit, leaseUntil) {
      const now = Date.now();
      const candidates = await deliveriesOf
        .find({ state: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lt: now }, endpointId: { $nin: await disabledIds(endpointsOf) } })
        .sort({ nextAttemptAt: 1 })
        .limit(limit)
        .toArray();
      const claimed: DueDelivery[] = [];
      for (const candidate of candidates) {
        const leased = await deliveriesOf.findOneAndUpdate(
          { _id: candidate._id, state: 'pending', leaseUntil: { $lt: now } },
          { $set: { leaseUntil } },
          { returnDocument: 'after' },
        );
        if (leased === null) continue;
        const endpoint = await endpointsOf.findOne({ _id: leased.endpointId });
        if (endpoint === null) continue;
        const previous = endpoint.previousSecret === null ? null : secrets.open(endpoint._id, bytes(endpoint.previousSecret));
        claimed.push({
          ...deliveryOf(leased),
          clubId: endpoint.clubId,
          url: endpoint.url,
          secrets: signingSecrets(secrets.open(endpoint._id, bytes(endpoint.secret)), previous, endpoint.previousSecretUntil, now),
        });
      }
      return claimed;
    },
    async recordAttempt(d, outcome) {
      const key = deliveryKey(d.endpointId, d.eventId);
      const next: DeliveryState = outcome.delivered ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
      await deliveriesOf.updateOne(
        { _id: key },
        {
          $set: {
            state: next,
            nextAttemptAt: outcome.retryAt ?? 0,
            leaseUntil: 0,
            lastAttemptAt: new Date().toISOString(),
            lastStatus: outcome.status,
            lastError: outcome.error,
          },
          $inc: { attempts: 1 },
        },
      );
      // A match erased while this attempt was in flight: its body is gone, so it is not tried again.
      if (next === 'pending') await deliveriesOf.updateOne({ _id: key, body: ERASED_BODY, state: 'pending' }, { $set: { state: 'failed' } });
    },
    prune: async (before) => (await deliveriesOf.deleteMany({ state: { $ne: 'pending' }, createdAt: { $lt: before } })).deletedCount,
    async nextDueAt() {
      const now = Date.now();
      const enabled = { state: 'pending' as const, endpointId: { $nin: await disabledIds(endpointsOf) } };
      const [free] = await deliveriesOf
        .find({ ...enabled, leaseUntil: { $lt: now } })
        .sort({ nextAttemptAt: 1 })
        .limit(1)
        .toArray();
      // A leased delivery is due again no sooner than its lease ends.
      const [leased] = await deliveriesOf
        .find({ ...enabled, leaseUntil: { $gte: now } })
        .sort({ leaseUntil: 1 })
        .limit(1)
        .toArray();
      const times = [free?.nextAttemptAt, leased?.leaseUntil].filter((at): at is number => at !== undefined);
      return times.length === 0 ? null : Math.min(...times);
    },
  };
}
