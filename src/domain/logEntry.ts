import { createHash } from 'node:crypto';
import { clubIdOfStream } from './clubIds.js';
import { decodeMatchEvent, isMatchEventType } from './matchEvents.js';
import { matchIdOfStream } from './matchId.js';
import type { LoggedEvent } from './publicEvent.js';
import type { LogFacts } from './logFacts.js';
import { isRecord } from '../platform/isRecord.js';

/**
 * A leaf of the transparency log (docs/auditing.md): one per accepted match or club event, as
 * canonical JSON (keys sorted, no spaces, strings and integers only, so RFC 8785 and
 * JSON.stringify agree), served byte for byte. It names the event and commits to its content
 * by digest only: no payload, no secret, no token hash. Entries of events written since issue 59
 * also commit who could write: a version's protection, how it came (POST, PUT) and the token's
 * part (bound, matched, none); an erasure's asker (DELETE, operator).
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
  /** Any other event: hex SHA-256 of its stored data (these carry no payload and are never erased), after a salt where one was drawn. */
  dataSha256?: string;
  protection?: 'protected' | 'unprotected';
  via?: LogFacts['via'];
  credential?: 'bound' | 'matched' | 'none';
}

export function logEntryText(entry: LogEntry): string {
  // Every member in its name's order; JSON.stringify leaves out the absent (undefined) ones.
  const { clubId, credential, dataSha256, matchId, payloadSha256, protection, recordedAt, revision, type, via } = entry;
  return JSON.stringify({ clubId, credential, dataSha256, matchId, payloadSha256, protection, recordedAt, revision, type, via });
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** `value` when it is one of `allowed`, else undefined (the entry then fails its canonical check). */
const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | undefined => allowed.find((one) => one === value);

/** Reads an entry back; null when the text is not one in canonical form (an auditor's check of what a server sent). */
export function parseLogEntry(text: string): LogEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const fields = value;
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
    protection: oneOf(fields.protection, ['protected', 'unprotected'] as const),
    via: oneOf(fields.via, ['POST', 'PUT', 'DELETE', 'operator'] as const),
    credential: oneOf(fields.credential, ['bound', 'matched', 'none'] as const),
  };
  const oneStream = (entry.matchId === undefined) !== (entry.clubId === undefined);
  const oneDigest = (entry.payloadSha256 === undefined) !== (entry.dataSha256 === undefined);
  return oneStream && oneDigest && logEntryText(entry) === text ? entry : null;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** SHA-256 of the salt's bytes (base64) followed by the data's UTF-8 bytes. */
export const saltedSha256Hex = (salt: string, data: string) => createHash('sha256').update(Buffer.from(salt, 'base64')).update(data).digest('hex');

/**
 * The entry of an event, or null for events of other streams (an admin email's claim) and for
 * those kept out of the public log (a club's dashboard actions since issue 59): the salted digest
 * of a version (from its metadata; an unsalted SHA-256 of the payload for versions stored before
 * salts), the SHA-256 of the data of any other event (after its salt, where one was drawn), and
 * the facts of who could write where the event's metadata carries them.
 */
export function logEntryOf(
  recorded: LoggedEvent & { streamId: string; metadata: { payloadSha256?: string; logFacts?: LogFacts; dataSalt?: string; publicLog?: boolean } },
): LogEntry | null {
  const matchId = matchIdOfStream(recorded.streamId);
  const clubId = matchId === null ? clubIdOfStream(recorded.streamId) : null;
  if ((matchId === null && clubId === null) || recorded.metadata.publicLog === false) return null;
  const where = matchId !== null ? { matchId } : { clubId: clubId! };
  const base = { ...where, revision: recorded.revision, type: recorded.type, recordedAt: recorded.recordedAt, ...recorded.metadata.logFacts };
  if (isMatchEventType(recorded.type)) {
    const salted = recorded.metadata.payloadSha256;
    if (salted !== undefined) return { ...base, payloadSha256: salted };
    if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} was erased without its payload digest`);
    const version = decodeMatchEvent(recorded.type, recorded.data);
    return { ...base, payloadSha256: sha256Hex(version!.data.payload) };
  }
  if (recorded.erased) throw new Error(`${recorded.streamId} revision ${recorded.revision} is erased, but only versions may be`);
  const salt = recorded.metadata.dataSalt;
  return { ...base, dataSha256: salt === undefined ? sha256Hex(recorded.data) : saltedSha256Hex(salt, recorded.data) };
}
