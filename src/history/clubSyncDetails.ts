import { decodeClubSyncEvent } from '../domain/matchEvents.js';
import { registerPublicDetails } from './publicEvent.js';

/**
 * What a match's public history shows of its club sync outcomes: the club and team the payload
 * named (public in the payload anyway) and whether the sync was copied. Why a sync was not
 * authenticated, and by which key, is for the club's admin only (Connect → Sync status).
 */
export function registerClubSyncDetails() {
  for (const type of ['ClubSyncAccepted', 'ClubSyncUnauthenticated', 'ClubSyncSkipped']) {
    registerPublicDetails(type, (data) => {
      const event = decodeClubSyncEvent(type, data);
      if (event === null) return {};
      return { clubId: event.data.clubId, teamId: event.data.teamId, copied: event.type !== 'ClubSyncSkipped' };
    });
  }
}
