/**
 * Every stream the service writes is named with one of these prefixes (DESIGN.md: one stream
 * per match `match-<id>`, one per club `club-<clubId>`). Event stores shared with other
 * software (EventStoreDB) deliver only these streams to reads of the whole log and to
 * projections; a new kind of stream must add its prefix here.
 */
export const SERVICE_STREAM_PREFIXES: readonly string[] = ['match-', 'club-'];
