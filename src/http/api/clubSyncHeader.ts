import type { ClubSyncEvent } from '../../domain/matchEvents.js';

/** The response header that tells a scoring app how its club sync's key was judged (additive: `crmSync` keeps the spec's rule). */
export const CLUB_SYNC_HEADER = 'Matchlog-Club-Sync';

/**
 * Why a key failed, as the app may hear it: a key that names no key of the club, a wrong secret
 * and a revoked key are all `bad_key`, so the header never tells whether a key id exists.
 */
function publicReason(reason: string): string {
  return reason === 'missing_key' || reason === 'malformed_key' || reason === 'no_such_club' || reason === 'no_such_team' ? reason : 'bad_key';
}

/**
 * The header's value for a sync outcome: `processed` (a valid key of the club), `flagged-no-key`
 * or `flagged-bad-key` (processed without a valid key, flagged in the dashboard), `skipped` (not
 * copied); the last three with `; reason=…`, so an app can offer "test connection" and say
 * "the key looks mistyped" or "no team with this id".
 */
export function clubSyncHeader(outcome: ClubSyncEvent): string {
  switch (outcome.type) {
    case 'ClubSyncAccepted':
      return 'processed';
    case 'ClubSyncUnauthenticated':
      return `${outcome.data.reason === 'missing_key' ? 'flagged-no-key' : 'flagged-bad-key'}; reason=${publicReason(outcome.data.reason)}`;
    case 'ClubSyncSkipped':
      return `skipped; reason=${publicReason(outcome.data.reason)}`;
  }
}
