import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Position } from '../domain/logPosition.js';
import { FORGOTTEN, type WebhookEventType, isWebhookEventType } from '../domain/webhookEvents.js';
import { openSqliteFile } from '../platform/sqliteFile.js';
import {
  type AttemptOutcome,
  type Delivery,
  type DeliveryState,
  type DueDelivery,
  ERASED_BODY,
  type LearntMemory,
  type NewDelivery,
  newEndpointId,
  secretSealer,
  signingSecrets,
  type WebhookEndpoint,
  type WebhookStore,
  type DashboardOperations,
  type QueueOperations,
  type SenderOperations,
} from './webhookStore.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS endpoints (
  endpoint_id TEXT PRIMARY KEY, club_id TEXT NOT NULL, url TEXT NOT NULL, event_types TEXT NOT NULL, created_at TEXT NOT NULL,
  secret BLOB NOT NULL, previous_secret BLOB, previous_secret_until TEXT, disabled_at TEXT, disabled_reason TEXT);
CREATE INDEX IF NOT EXISTS endpoints_by_club ON endpoints (club_id);
CREATE TABLE IF NOT EXISTS deliveries (
  endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, match_id TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL,
  state TEXT NOT NULL, attempts INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL, lease_until INTEGER NOT NULL DEFAULT 0,
  last_attempt_at TEXT, last_status INTEGER, last_error TEXT, PRIMARY KEY (endpoint_id, event_id));
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS deliveries_by_match ON deliveries (match_id);
CREATE TABLE IF NOT EXISTS log_position (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER);
CREATE TABLE IF NOT EXISTS club_matches (club_id TEXT NOT NULL, match_id TEXT NOT NULL, synced INTEGER NOT NULL, final INTEGER NOT NULL,
  PRIMARY KEY (club_id, match_id));
`;

interface EndpointRow {
  endpoint_id: string;
  club_id: string;
  url: string;
  event_types: string;
  created_at: string;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_secret_until: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  endpoint_id: string;
  event_id: string;
  match_id: string;
  type: string;
  body: string;
  created_at: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
}

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  endpointId: row.endpoint_id,
  clubId: row.club_id,
  url: row.url,
  eventTypes: JSON.parse(row.event_types).filter(isWebhookEventType),
  createdAt: row.created_at,
  previousSecretUntil: row.previous_secret_until,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
});

const deliveryOf = (row: DeliveryRow): Delivery => ({
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  matchId: row.match_id,
  type: isWebhookEventType(row.type) ? row.type : 'match.changed',
  body: row.body,
  createdAt: row.created_at,
  state: row.state,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  lastStatus: row.last_status,
  lastError: row.last_error,
});

/** The statements every group of the store's operations shares, prepared once. */
function prepareStatements(db: Database.Database) {
  return {
    endpoint: db.prepare<[string, string], EndpointRow>('SELECT * FROM endpoints WHERE club_id = ? AND endpoint_id = ?'),
    endpointById: db.prepare<[string], EndpointRow>('SELECT * FROM endpoints WHERE endpoint_id = ?'),
    endpoints: db.prepare<[string], EndpointRow>('SELECT * FROM endpoints WHERE club_id = ? ORDER BY created_at, endpoint_id'),
    position: db.prepare<[], { position: number | null }>('SELECT position FROM log_position WHERE id = 1'),
    memory: db.prepare<[string, string], { synced: number; final: number }>('SELECT synced, final FROM club_matches WHERE club_id = ? AND match_id = ?'),
    due: db.prepare<[number, number, number], DeliveryRow>(
      `SELECT d.* FROM deliveries d JOIN endpoints e USING (endpoint_id)
       WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND d.lease_until < ? AND e.disabled_at IS NULL ORDER BY d.next_attempt_at LIMIT ?`,
    ),
    lease: db.prepare<[number, string, string, number]>(
      "UPDATE deliveries SET lease_until = ? WHERE endpoint_id = ? AND event_id = ? AND state = 'pending' AND lease_until < ?",
    ),
    nextDue: db.prepare<[], { at: number | null }>(
      `SELECT min(max(d.next_attempt_at, d.lease_until)) AS at FROM deliveries d JOIN endpoints e USING (endpoint_id)
       WHERE d.state = 'pending' AND e.disabled_at IS NULL`,
    ),
  };
}

/** What the store's groups of operations share: the open file, its prepared statements and the secrets' sealer. */
interface Handles {
  db: Database.Database;
  statements: ReturnType<typeof prepareStatements>;
  secrets: ReturnType<typeof secretSealer>;
}

/**
 * The webhooks' store in DATA_DIR/webhooks.sqlite (the embedded engine's): the deliveries (one
 * per endpoint and log event: the primary key is what keeps an event from being queued twice)
 * and the log position the queue has read to are moved in one transaction with what the batch
 * learnt. Several processes may open it; a delivery is leased before it is sent.
 */
export function openSqliteWebhookStore(file: string, writeTokenKey: Buffer): WebhookStore {
  const db: Database.Database = openSqliteFile(file, 'FULL');
  db.exec(SCHEMA);
  const handles: Handles = { db, statements: prepareStatements(db), secrets: secretSealer(writeTokenKey) };
  return {
    close: async () => {
      db.close();
    },
    ...dashboardOperations(handles),
    ...queueOperations(handles),
    ...senderOperations(handles),
  };
}

/** The endpoints and their deliveries, as the club dashboard manages them. */
function dashboardOperations({ db, statements, secrets }: Handles): DashboardOperations {
  return {
    async addEndpoint(clubId, url, eventTypes, secret, maxPerClub) {
      const endpointId = newEndpointId(randomBytes(9));
      return db.transaction(() => {
        if (statements.endpoints.all(clubId).length >= maxPerClub) return null;
        db.prepare('INSERT INTO endpoints (endpoint_id, club_id, url, event_types, created_at, secret) VALUES (?, ?, ?, ?, ?, ?)').run(
          endpointId,
          clubId,
          url,
          JSON.stringify(eventTypes),
          new Date().toISOString(),
          secrets.seal(endpointId, secret),
        );
        const row = statements.endpointById.get(endpointId);
        return row === undefined ? null : endpointOf(row);
      })();
    },
    endpoints: async (clubId) => statements.endpoints.all(clubId).map(endpointOf),
    async endpoint(clubId, endpointId) {
      const row = statements.endpoint.get(clubId, endpointId);
      return row === undefined ? null : endpointOf(row);
    },
    async rotateSecret(clubId, endpointId, secret, overlapUntil) {
      const row = statements.endpoint.get(clubId, endpointId);
      if (row === undefined) return false;
      db.prepare('UPDATE endpoints SET secret = ?, previous_secret = ?, previous_secret_until = ? WHERE endpoint_id = ?').run(
        secrets.seal(endpointId, secret),
        row.secret,
        overlapUntil,
        endpointId,
      );
      return true;
    },
    async setEnabled(clubId, endpointId, enabled, reason = null) {
      const at = enabled ? null : new Date().toISOString();
      return (
        db.prepare('UPDATE endpoints SET disabled_at = ?, disabled_reason = ? WHERE club_id = ? AND endpoint_id = ?').run(at, reason, clubId, endpointId)
          .changes === 1
      );
    },
    async removeEndpoint(clubId, endpointId) {
      return db.transaction(() => {
        const removed = db.prepare('DELETE FROM endpoints WHERE club_id = ? AND endpoint_id = ?').run(clubId, endpointId).changes === 1;
        if (removed) db.prepare('DELETE FROM deliveries WHERE endpoint_id = ?').run(endpointId);
        return removed;
      })();
    },
    deliveries: async (endpointId, limit) =>
      db
        .prepare<[string, number], DeliveryRow>('SELECT * FROM deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, event_id DESC LIMIT ?')
        .all(endpointId, limit)
        .map(deliveryOf),
    async redeliver(endpointId, eventId) {
      return (
        db
          .prepare("UPDATE deliveries SET state = 'pending', next_attempt_at = ?, lease_until = 0 WHERE endpoint_id = ? AND event_id = ? AND body != ?")
          .run(Date.now(), endpointId, eventId, ERASED_BODY).changes === 1
      );
    },
  };
}

/** The queue's side: the log position, what is known of each club's match, and the deliveries it queues. */
function queueOperations({ db, statements }: Handles): QueueOperations {
  return {
    position: async (): Promise<Position | null> => statements.position.get()?.position ?? null,
    async rewind(position) {
      db.prepare('UPDATE log_position SET position = ? WHERE id = 1').run(position);
    },
    // Exact without the position: what a batch learnt is committed with the position it read to.
    async memory(clubId, matchId) {
      const row = statements.memory.get(clubId, matchId);
      return row === undefined ? FORGOTTEN : { synced: row.synced === 1, final: row.final === 1 };
    },
    subscribers: async (clubId: string, type: WebhookEventType, recordedAt: string) =>
      statements.endpoints
        .all(clubId)
        .map(endpointOf)
        .filter((endpoint) => endpoint.disabledAt === null && endpoint.createdAt <= recordedAt && endpoint.eventTypes.includes(type)),
    /** In one transaction: a crash leaves all of it or none. */
    async enqueue(deliveries: NewDelivery[], memories: LearntMemory[], erasedMatches: string[], position: Position) {
      const insert = db.prepare(
        `INSERT OR IGNORE INTO deliveries (endpoint_id, event_id, match_id, type, body, created_at, state, attempts, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)`,
      );
      const remember = db.prepare('INSERT OR REPLACE INTO club_matches (club_id, match_id, synced, final) VALUES (?, ?, ?, ?)');
      const forget = db.prepare(
        `UPDATE deliveries SET body = ?, state = CASE state WHEN 'pending' THEN 'failed' ELSE state END,
         last_error = coalesce(last_error, 'match erased') WHERE match_id = ?`,
      );
      db.transaction(() => {
        // Another process sharing the file committed this batch already: what it learnt is newer than ours.
        const reached = statements.position.get()?.position ?? null;
        if (reached !== null && position <= reached) return;
        const now = Date.now();
        for (const d of deliveries) insert.run(d.endpointId, d.eventId, d.matchId, d.type, d.body, d.createdAt, now);
        for (const { clubId, matchId, memory } of memories) remember.run(clubId, matchId, memory.synced ? 1 : 0, memory.final ? 1 : 0);
        for (const matchId of erasedMatches) forget.run(ERASED_BODY, matchId);
        db.prepare(
          'INSERT INTO log_position (id, position) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET position = max(coalesce(position, -1), excluded.position)',
        ).run(position);
      })();
    },
  };
}

/** The sender's side: the deliveries due, leased before they are sent, and what each attempt came to. */
function senderOperations({ db, statements, secrets }: Handles): SenderOperations {
  return {
    async claimDue(limit, leaseUntil) {
      return db.transaction(() => {
        const now = Date.now();
        return statements.due.all(now, now, limit).flatMap((row): DueDelivery[] => {
          if (statements.lease.run(leaseUntil, row.endpoint_id, row.event_id, now).changes !== 1) return [];
          const endpoint = statements.endpointById.get(row.endpoint_id);
          if (endpoint === undefined) return [];
          const previous = endpoint.previous_secret === null ? null : secrets.open(endpoint.endpoint_id, endpoint.previous_secret);
          return [
            {
              ...deliveryOf(row),
              clubId: endpoint.club_id,
              url: endpoint.url,
              secrets: signingSecrets(secrets.open(endpoint.endpoint_id, endpoint.secret), previous, endpoint.previous_secret_until, now),
            },
          ];
        });
      })();
    },
    prune: async (before) => db.prepare("DELETE FROM deliveries WHERE state != 'pending' AND created_at < ?").run(before).changes,
    nextDueAt: async () => statements.nextDue.get()?.at ?? null,
    async recordAttempt(d: Pick<Delivery, 'endpointId' | 'eventId'>, outcome: AttemptOutcome) {
      const state: DeliveryState = outcome.delivered ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
      db.prepare(
        // A match erased while this attempt was in flight: its body is gone, so it is not tried again.
        `UPDATE deliveries SET state = CASE WHEN body = ? AND ? = 'pending' THEN 'failed' ELSE ? END, attempts = attempts + 1, next_attempt_at = ?,
         lease_until = 0, last_attempt_at = ?, last_status = ?, last_error = ? WHERE endpoint_id = ? AND event_id = ?`,
      ).run(ERASED_BODY, state, state, outcome.retryAt ?? 0, new Date().toISOString(), outcome.status, outcome.error, d.endpointId, d.eventId);
    },
  };
}
