import type { ClubEvent } from './clubEvents.js';
import type { MatchStreamEvent } from './matchEvents.js';

/** Every event type the log holds: a match stream's (content, club syncs, erasure) and a club's. */
export type LogEventType = MatchStreamEvent['type'] | ClubEvent['type'];
