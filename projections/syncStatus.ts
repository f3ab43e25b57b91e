import { clubPlayers } from '../src/domain/clubSync.js';
import { CLUB_SYNC_EVENT_TYPES, type ClubSyncEvent, decodeClubSyncEvent, decodeMatchErased } from '../src/domain/matchEvents.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import { type FieldValue, type ReadModelReader, collectionOf } from '../src/readmodel/readModel.js';
import { syncSourceBefore } from './clubSyncSource.js';
import type { SyncSource } from './syncSource.js';
import { defineProjection } from './projection.js';

/**
 * Connect → Sync status: one row per upload that tried to sync with a club (what came of it,
 * how much was copied), and when each app key was last used. Rows for club ids that name no
 * club are not kept: no one could ever see them.
 */
const SYNC_STATUS = 'syncStatus';
const SYNC_LOG = collectionOf<SyncLogDoc>('clubSyncLog');
const APP_KEY_USAGE = collectionOf<AppKeyUsageDoc>('appKeyUsage');

export type SyncOutcome = 'synced' | 'unauthenticated' | 'skipped';
export const SYNC_OUTCOMES: SyncOutcome[] = ['synced', 'unauthenticated', 'skipped'];

export interface SyncLogDoc {
  /** `<clubId>:<matchId>:<revision>` */
  id: string;
  clubId: string;
  teamId: string;
  matchId: string;
  revision: number;
  position: number;
  at: string;
  outcome: SyncOutcome;
  /** Why it was not authenticated or skipped (src/domain/clubSync.ts), null when synced. */
  reason: string | null;
  keyId: string | null;
  title: string | null;
  startedAt: string | null;
  playersCopied: number;
  actionsCopied: number;
  /** The club's side as the upload told it; null when processed with the side unknown (absent on rows of older versions). */
  side?: 'home' | 'away' | null;
}

export interface AppKeyUsageDoc {
  /** `<clubId>:<keyId>` */
  id: string;
  clubId: string;
  keyId: string;
  lastUsedAt: string;
  lastMatchId: string;
  uses: number;
  /** Log position of the last use counted: a redelivered event is not counted again. */
  position: number;
}

/** What a Sync status row tells of the payload synced. */
interface Copied {
  title: string | null;
  startedAt: string | null;
  players: { team: string | null }[];
  actions: number;
}

const outcomeOf = (event: ClubSyncEvent): SyncOutcome =>
  event.type === 'ClubSyncAccepted' ? 'synced' : event.type === 'ClubSyncUnauthenticated' ? 'unauthenticated' : 'skipped';

function copiedOf(source: SyncSource): Copied {
  const { home, away, startedAt } = source.summary;
  const title = home.name !== null || away.name !== null ? `${home.name ?? 'Home'} vs ${away.name ?? 'Away'}` : null;
  return { title, startedAt, players: source.players.map((p) => ({ team: p.team })), actions: source.summary.actionCount };
}

/** Pure: the Sync status row of one sync outcome. */
function syncLogRow(event: ClubSyncEvent, pending: Copied | null, recorded: Pick<RecordedEvent, 'revision' | 'position' | 'recordedAt'>): SyncLogDoc {
  const { clubId, teamId, matchId, keyId } = event.data;
  const outcome = outcomeOf(event);
  const copied = outcome !== 'skipped' && pending !== null;
  const side = event.type === 'ClubSyncSkipped' ? null : event.data.side;
  return {
    id: `${clubId}:${matchId}:${recorded.revision}`,
    clubId,
    teamId,
    matchId,
    revision: recorded.revision,
    position: recorded.position,
    at: recorded.recordedAt,
    outcome,
    reason: event.type === 'ClubSyncAccepted' ? null : event.data.reason,
    keyId,
    title: pending?.title ?? null,
    startedAt: pending?.startedAt ?? null,
    playersCopied: copied ? clubPlayers(pending.players, side).length : 0,
    actionsCopied: copied ? pending.actions : 0,
    side,
  };
}

/** Pure: a key's usage after an accepted sync; unchanged when this event was already counted. */
function keyUsageAfter(
  current: AppKeyUsageDoc | null,
  event: Extract<ClubSyncEvent, { type: 'ClubSyncAccepted' }>,
  recorded: Pick<RecordedEvent, 'position' | 'recordedAt'>,
): AppKeyUsageDoc {
  const { clubId, keyId, matchId } = event.data;
  if (current !== null && current.position >= recorded.position) return current;
  return {
    id: `${clubId}:${keyId}`,
    clubId,
    keyId,
    lastUsedAt: recorded.recordedAt,
    lastMatchId: matchId,
    uses: (current?.uses ?? 0) + 1,
    position: recorded.position,
  };
}

export const syncStatusProjection = defineProjection({
  name: SYNC_STATUS,
  collections: [SYNC_LOG, APP_KEY_USAGE],
  indexes: [
    { collection: SYNC_LOG, fields: ['clubId', 'position'] },
    { collection: SYNC_LOG, fields: ['clubId', 'outcome', 'position'] },
    { collection: APP_KEY_USAGE, fields: ['clubId'] },
  ],
  canHandle: [...CLUB_SYNC_EVENT_TYPES, 'MatchErased'],
  changedBy: [...CLUB_SYNC_EVENT_TYPES, 'MatchErased'],
  async apply(recorded, view, append) {
    const erasure = decodeMatchErased(recorded.type, recorded.data);
    if (erasure !== null) {
      // The rows keep the outcome, not what the erased version held: as a rebuild makes them.
      for (const { clubId, revision } of erasure.data.syncs) {
        const row = await view.get(SYNC_LOG, `${clubId}:${erasure.data.matchId}:${revision}`);
        if (row !== null) view.put(SYNC_LOG, { ...row, title: null, startedAt: null, playersCopied: 0, actionsCopied: 0 });
      }
      return;
    }
    const sync = decodeClubSyncEvent(recorded.type, recorded.data);
    if (sync === null) return;
    if (!(sync.type === 'ClubSyncSkipped' && sync.data.reason === 'no_such_club')) {
      const source = await syncSourceBefore(recorded, append, view);
      view.put(SYNC_LOG, syncLogRow(sync, source === null ? null : copiedOf(source), recorded));
    }
    if (sync.type === 'ClubSyncAccepted') {
      const id = `${sync.data.clubId}:${sync.data.keyId}`;
      const usage = keyUsageAfter(await view.get(APP_KEY_USAGE, id), sync, recorded);
      view.put(APP_KEY_USAGE, usage);
    }
  },
});

export async function readSyncLog(reader: ReadModelReader, clubId: string, options: { outcome?: SyncOutcome | undefined; limit: number; offset?: number }) {
  const where: Record<string, FieldValue> = { clubId };
  if (options.outcome !== undefined) where.outcome = options.outcome;
  const rows = await reader.find(SYNC_LOG, { where, orderBy: [{ field: 'position', direction: 'desc' }], limit: options.limit, offset: options.offset ?? 0 });
  return { rows, total: await reader.count(SYNC_LOG, where) };
}

export async function readAppKeyUsage(reader: ReadModelReader, clubId: string): Promise<Map<string, AppKeyUsageDoc>> {
  const docs = await reader.find(APP_KEY_USAGE, { where: { clubId } });
  return new Map(docs.map((doc) => [doc.keyId, doc]));
}
