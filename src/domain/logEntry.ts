import { createHash } from 'node:crypto';
import { clubIdOfStream } from './clubIds.js';
import { decodeMatchEvent, isMatchEventType } from './matchEvents.js';
import { matchIdOfStream } from './matchId.js';
import type { LoggedEvent } from './publicEvent.js';

/**
 * A leaf of the transparency log (docs/auditing.md): one per accepted match or club event, as
 * canonical JSON (keys sorted, no spaces, strings and integers only, so RFC 8785 and
 * JSON.stringify agree), served byte for byte. It names the event and commits to its content
 * by digest only: no payload, no secret, no token hash.
 */
export interface LogEntry {
  /** The match's id, for an event of a match's stream. */
  matchId?: string;
  /** The club's id, for an event of a club's stream. */
  clubId?: string;
  revision: number;
  type: string;
  recordedAt: string;
  /** A version: hex SHA-256(salt ‖ payload bytes) (src/domain/payloadDigest.ts). */
  payloadSha256?: string;
  /** Any other event: hex SHA-256 of its stored data (these carry no payload and are never erased). */
  dataSha256?: string;
}

export function logEntryText(entry: LogEntry): string {
  // Every member in its name's order; JSON.stringify leaves out the absent (undefined) ones.
  const { clubId, dataSha256, matchId, payloadSha256, recordedAt, revision, type } = entry;
  return JSON.stringify({ clubId, dataSha256, matchId, payloadSha256, recordedAt, revision, type });
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Reads an entry back; null when the text is not one in canonical form (an auditor's check of what a server sent). */
export function parseLogEntry(text: string): LogEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Record<string, unknown>;
  const { revision, type, recordedAt } = fields;
  if (typeof revision !== 'number' || typeof type !== 'string' || typeof recordedAt !== 'string') return null;
  const entry: LogEntry = {
    matchId: optionalString(fields.matchId),
    clubId: optionalString(fields.clubId),
    revision,
    type,
    recordedAt,
    payloadSha256: optionalString(fields.payloadSha256),
    dataSha256: optionalString(fields.dataSha256),
  };
  const oneStream = (entry.matchId === undefined) !== (entry.clubId === undefined);
  const oneDigest = (entry.payloadSha256 === undefined) !== (entry.dataSha256 === undefined);
  return oneStream && oneDigest && logEntryText(entry) === text ? entry : null;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The entry of an event, or null for events of other streams (an admin email's claim): the
 * salted digest of a version (from its metadata; an unsalted SHA-256 of the payload for
 * versions stored before salts), the SHA-256 of the data of any other event.
 */
export function logEntryOf(recorded: LoggedEvent & { streamId: string; metadata: { payloadSha256?: string } }): LogEntry | null {
  const matchId = matchIdOfStream(recorded.streamId);
  const clubId = matchId === null ? clubIdOfStream(recorded.streamId) : null;
  if (matchId === null && clubId === null) return null;
  const where = matchId !== null ? { matchId } : { clubId: clubId! };
  const base = { ...where, revision: recorded.revision, type: recorded.type, recordedAt: recorded.recordedAt };
  if (isMatchEventType(recorded.type)) {
    const salted = recorded.metadata.payloadSha256;
    if (salted !== undefined) return { ...base, payloadSha256: salted };
    if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} was erased without its payload digest`);
    const version = decodeMatchEvent(recorded.type, recorded.data);
    return { ...base, payloadSha256: sha256Hex(version!.data.payload) };
  }
  if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} is erased, but only versions may be`);
  return { ...base, dataSha256: sha256Hex(recorded.data) };
}
