/**
 * Every stream the service writes is named with one of these prefixes (src/domain: one stream
 * per match `match-<id>`, one per club `club-<clubId>`, one per claimed admin email
 * `admin-<email>`). Event stores shared with other software (EventStoreDB) deliver only these
 * streams to reads of the whole log and to projections; a new kind of stream must add its
 * prefix here (test/eventstore/streamPrefixes.test.ts checks the known ones).
 */
export const SERVICE_STREAM_PREFIXES: readonly string[] = ['match-', 'club-', 'admin-'];

/** Whether a stream is named with one of `prefixes`. */
export const namedWithPrefix = (prefixes: readonly string[]) => (streamId: string) => prefixes.some((prefix) => streamId.startsWith(prefix));
