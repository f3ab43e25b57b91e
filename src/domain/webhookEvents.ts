import type { MatchStatus, MatchSummary } from './matchPayload.js';
import type { ClubSyncEvent } from './matchEvents.js';
import { isOneOf } from '../platform/oneOf.js';

/** What a club's endpoint can subscribe to (docs/club-dashboard.md, Webhooks). */
export const WEBHOOK_EVENT_TYPES = ['match.synced', 'match.changed', 'match.final', 'sync.flagged'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'match.synced': 'Match synced: a match is copied into the club for the first time',
  'match.changed': 'Match changed: a later upload of a synced match',
  'match.final': 'Match final: a synced match is uploaded with its final status',
  'sync.flagged': 'Sync flagged: an upload without a valid app key (processed and flagged, or skipped)',
};

export const isWebhookEventType = (text: string): text is WebhookEventType => isOneOf(WEBHOOK_EVENT_TYPES, text);

/** What the webhooks remember of a match in a club, to tell a first sync and a first final from later ones. */
export interface ClubMatchMemory {
  synced: boolean;
  final: boolean;
}

export const FORGOTTEN: ClubMatchMemory = { synced: false, final: false };

/**
 * The one webhook event a club sync outcome gives (one log event, one message, one webhook-id):
 * a sync without a valid key is `sync.flagged`; with one, the first final upload is `match.final`,
 * else the first sync into the club is `match.synced`, and any later one `match.changed`.
 */
export function webhookEventOf(sync: ClubSyncEvent, status: MatchStatus | null, memory: ClubMatchMemory): { type: WebhookEventType; memory: ClubMatchMemory } {
  const copied = sync.type !== 'ClubSyncSkipped';
  const final = status === 'final';
  const next = copied ? { synced: true, final: memory.final || final } : memory;
  if (sync.type !== 'ClubSyncAccepted') return { type: 'sync.flagged', memory: next };
  if (final && !memory.final) return { type: 'match.final', memory: next };
  return { type: memory.synced ? 'match.changed' : 'match.synced', memory: next };
}

/** Where a message's links point. */
export interface MessageLinks {
  matchUrl: string;
  apiUrl: string;
}

const team = (side: MatchSummary['home']) => ({ name: side.name, score: side.score });

/**
 * The body of a webhook (Standard Webhooks' shape: type, timestamp, data). It names the match
 * and its result, never players nor the payload: a receiver reads the match from the API.
 */
export function webhookBody(
  type: WebhookEventType,
  event: { sync: ClubSyncEvent; recordedAt: string; revision: number },
  summary: Pick<MatchSummary, 'home' | 'away' | 'status' | 'startedAt' | 'sport'> | null,
  links: MessageLinks,
): string {
  const { sync } = event;
  return JSON.stringify({
    type,
    timestamp: event.recordedAt,
    data: {
      matchId: sync.data.matchId,
      clubId: sync.data.clubId,
      teamId: sync.data.teamId,
      outcome: sync.type === 'ClubSyncAccepted' ? 'synced' : sync.type === 'ClubSyncUnauthenticated' ? 'unauthenticated' : 'skipped',
      reason: sync.type === 'ClubSyncAccepted' ? null : sync.data.reason,
      side: sync.type === 'ClubSyncSkipped' ? null : sync.data.side,
      revision: event.revision,
      status: summary?.status ?? null,
      sport: summary?.sport ?? null,
      startedAt: summary?.startedAt ?? null,
      home: summary === null ? null : team(summary.home),
      away: summary === null ? null : team(summary.away),
      matchUrl: links.matchUrl,
      apiUrl: links.apiUrl,
    },
  });
}
