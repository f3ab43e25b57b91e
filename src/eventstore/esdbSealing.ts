import { CLUB_SYNC_EVENT_TYPES, type MatchErased } from '../domain/matchEvents.js';

/**
 * Which events of a match stream are sealed with the match's key on EventStoreDB (docs/decisions.md:
 * erasure on EventStoreDB). Sealed: whatever may carry the match's payload (its versions, and any
 * type not named here). Kept in the clear, because they must outlive the key: the record of the
 * erasure (every reader must tell the match was erased, and refuse its id, forever) and the club
 * sync outcomes (ids and reason codes, no payload; SQLite keeps them after an erasure too, and the
 * club's projections read them on every replay).
 */
const ERASURE_RECORD_TYPE: MatchErased['type'] = 'MatchErased';

const KEPT_IN_CLEAR: ReadonlySet<string> = new Set([ERASURE_RECORD_TYPE, ...CLUB_SYNC_EVENT_TYPES]);

/** Stored in the clear in a match stream, readable whatever became of its key. */
export const outlivesKey = (type: string) => KEPT_IN_CLEAR.has(type);

/** The only events a match stream whose key is erased still takes: records of its erasure (a rerun of one). */
export const isErasureRecord = (type: string) => type === ERASURE_RECORD_TYPE;
