import { createHmac, hkdfSync } from 'node:crypto';
import type { Position } from '../domain/logPosition.js';
import type { ClubMatchMemory, WebhookEventType } from '../domain/webhookEvents.js';
import { open, seal } from '../eventstore/payloadCipher.js';

/** A club's endpoint as the dashboard lists it: never its secrets. */
export interface WebhookEndpoint {
  endpointId: string;
  clubId: string;
  url: string;
  eventTypes: WebhookEventType[];
  createdAt: string;
  /** When the previous secret stops signing (a rotation's overlap), or null. */
  previousSecretUntil: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  endpointId: string;
  /** The log event's id: the `webhook-id`. */
  eventId: string;
  matchId: string;
  type: WebhookEventType;
  body: string;
  createdAt: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
}

/** A delivery to make now, with what signs it. */
export interface DueDelivery extends Delivery {
  clubId: string;
  url: string;
  secrets: string[];
}

export type NewDelivery = Pick<Delivery, 'endpointId' | 'eventId' | 'matchId' | 'type' | 'body' | 'createdAt'>;

/**
 * What a batch learnt of a club's match: its memory after the batch, and the positions of the
 * events of the batch that first made it synced or final (null: not in this batch).
 */
export interface LearntMemory {
  clubId: string;
  matchId: string;
  memory: ClubMatchMemory;
  syncedAt: Position | null;
  finalAt: Position | null;
}

/** What an attempt came to: delivered, tried again at `retryAt`, or failed for good (retryAt null). */
export interface AttemptOutcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
  retryAt: number | null;
}

/** A body kept after its match was erased: it named the match's teams and score. */
export const ERASED_BODY = '{"erased":true}';

/**
 * The webhooks' own state: the clubs' endpoints (secrets sealed), the deliveries (one per
 * endpoint and log event) and the log position the queue has read to. Two stores keep it: a
 * SQLite file beside the embedded engine (./sqliteWebhookStore.ts) and collections of the
 * MongoDB read-model database for API processes and a worker that share it (./mongoWebhookStore.ts).
 */
export interface WebhookStore {
  close(): Promise<void>;

  // Endpoints (the dashboard)
  /** A new endpoint, or null when the club has `maxPerClub` already. */
  addEndpoint(clubId: string, url: string, eventTypes: readonly WebhookEventType[], secret: string, maxPerClub: number): Promise<WebhookEndpoint | null>;
  endpoints(clubId: string): Promise<WebhookEndpoint[]>;
  endpoint(clubId: string, endpointId: string): Promise<WebhookEndpoint | null>;
  /** A new secret signs from now on; the current one signs beside it until `overlapUntil`. */
  rotateSecret(clubId: string, endpointId: string, secret: string, overlapUntil: string): Promise<boolean>;
  setEnabled(clubId: string, endpointId: string, enabled: boolean, reason?: string | null): Promise<boolean>;
  removeEndpoint(clubId: string, endpointId: string): Promise<boolean>;
  /** An endpoint's newest deliveries, newest first. */
  deliveries(endpointId: string, limit: number): Promise<Delivery[]>;
  /** Sends a delivery again (the same webhook-id: the admin asked for it), whatever became of it, unless its match was erased. */
  redeliver(endpointId: string, eventId: string): Promise<boolean>;

  // The queue (where projections run)
  position(): Promise<Position | null>;
  /** Moves the position back (a log restored from an older backup is behind it); enqueue only ever moves it forward. */
  rewind(position: Position | null): Promise<void>;
  /** What is known of a club's match before the event at `before`. */
  memory(clubId: string, matchId: string, before: Position): Promise<ClubMatchMemory>;
  /** The club's endpoints that take this event type and existed when the event was recorded. */
  subscribers(clubId: string, type: WebhookEventType, recordedAt: string): Promise<WebhookEndpoint[]>;
  /** Queues deliveries (one already queued stays as it is), keeps what was learnt, forgets erased matches' bodies, moves the position. */
  enqueue(deliveries: NewDelivery[], memories: LearntMemory[], erasedMatches: string[], position: Position): Promise<void>;

  // The sender
  /** Up to `limit` deliveries due now, each leased to this process until `leaseUntil`. */
  claimDue(limit: number, leaseUntil: number): Promise<DueDelivery[]>;
  recordAttempt(delivery: Pick<Delivery, 'endpointId' | 'eventId'>, outcome: AttemptOutcome): Promise<void>;
  /** Forgets deliveries done (delivered or failed) queued before `before` (ISO). */
  prune(before: string): Promise<number>;
  /** When the next pending delivery is due (ms since the epoch), or null. */
  nextDueAt(): Promise<number | null>;
}

/** A store's operations by who uses them, each built by a factory of its own in both stores. */
export type DashboardOperations = Pick<
  WebhookStore,
  'addEndpoint' | 'endpoints' | 'endpoint' | 'rotateSecret' | 'setEnabled' | 'removeEndpoint' | 'deliveries' | 'redeliver'
>;
export type QueueOperations = Pick<WebhookStore, 'position' | 'rewind' | 'memory' | 'subscribers' | 'enqueue'>;
export type SenderOperations = Pick<WebhookStore, 'claimDue' | 'recordAttempt' | 'prune' | 'nextDueAt'>;

/**
 * Seals and opens endpoint secrets with a key derived from the write-token key (Standard
 * Webhooks needs the secret itself to sign, so it cannot be hashed), bound to the endpoint.
 * `keyCheck` names the key without revealing it, so processes sharing a store can tell they hold the same one.
 */
export function secretSealer(writeTokenKey: Buffer) {
  const sealingKey = Buffer.from(hkdfSync('sha256', writeTokenKey, Buffer.alloc(0), 'matchlog webhook secrets', 32));
  const context = (endpointId: string) => Buffer.from(`webhook-secret\u0000${endpointId}`);
  return {
    seal: (endpointId: string, secret: string) => seal(sealingKey, context(endpointId), Buffer.from(secret, 'utf8')),
    open: (endpointId: string, sealed: Buffer) => open(sealingKey, context(endpointId), sealed).toString('utf8'),
    keyCheck: createHmac('sha256', sealingKey).update('matchlog webhook key check').digest('base64url'),
  };
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(current: string, previous: string | null, previousUntil: string | null, now: number): string[] {
  return previous !== null && previousUntil !== null && previousUntil > new Date(now).toISOString() ? [current, previous] : [current];
}

/** A new endpoint's id. */
export const newEndpointId = (random: Buffer) => `ep_${random.toString('base64url')}`;
