/**
 * Match ids appear in URLs, stream names and file-safe places, so they are restricted to
 * RFC 3986 unreserved characters, must start with a letter or digit (no "." or ".." segments),
 * and are at most 128 characters long. Generated ids are UUIDs, which fit.
 */
export const MATCH_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$';
const matchIdRegex = new RegExp(MATCH_ID_PATTERN);

export const MATCH_ID_RULE = 'a match id is 1-128 characters of A-Z a-z 0-9 . _ ~ -, starting with a letter or digit';

export function isMatchId(value: unknown): value is string {
  return typeof value === 'string' && matchIdRegex.test(value);
}

const MATCH_STREAM_PREFIX = 'match-';

export const matchStreamId = (matchId: string) => `${MATCH_STREAM_PREFIX}${matchId}`;

/** The match a stream holds, or null for any other stream. */
export function matchIdOfStream(streamId: string): string | null {
  return streamId.startsWith(MATCH_STREAM_PREFIX) ? streamId.slice(MATCH_STREAM_PREFIX.length) : null;
}
