import { type ClubSyncEventType, decodeClubSyncEvent } from './matchEvents.js';

/**
 * What a match's public history shows of its club sync outcomes: the club and team the payload
 * named (public in the payload anyway) and whether the sync was copied. Why a sync was not
 * authenticated, and by which key, is for the club's admin only (Connect → Sync status).
 */
export function clubSyncDetails(type: ClubSyncEventType, data: string): Record<string, unknown> {
  const event = decodeClubSyncEvent(type, data);
  if (event === null) return {};
  return { clubId: event.data.clubId, teamId: event.data.teamId, copied: event.type !== 'ClubSyncSkipped' };
}
