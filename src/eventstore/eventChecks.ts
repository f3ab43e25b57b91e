import type { LogFacts } from '../domain/logFacts.js';
import { type EventMetadata, InvalidAppendError, type NewEvent } from './eventStore.js';

/**
 * The envelope rules every event-store adapter applies, so that what one store accepts the
 * other does too, and what is read back is the same. EventStoreDB itself only takes UUID ids;
 * metadata outside EventMetadata would be dropped on the way back, so it is refused on the way in.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const METADATA_FIELDS = new Set(['requestId', 'clientAddressClass', 'schemaVersion', 'payloadSha256', 'logFacts', 'dataSalt', 'publicLog']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** What is wrong with an event's metadata, or null when it is an EventMetadata as declared. */
function metadataProblem(metadata: unknown): string | null {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return 'has no metadata object';
  for (const [field, value] of Object.entries(metadata)) {
    if (!METADATA_FIELDS.has(field)) return `has metadata field "${field}", which no store keeps`;
    if (field === 'schemaVersion' && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1))
      return 'has a metadata schemaVersion that is not a positive integer';
    if (field === 'logFacts') {
      if (logFactsOf(value) === null) return 'has metadata logFacts that are not LogFacts';
      continue;
    }
    if (field === 'publicLog') {
      if (value !== false) return 'has a metadata publicLog other than false';
      continue;
    }
    if (field === 'dataSalt' && !(typeof value === 'string' && BASE64.test(value))) return 'has a metadata dataSalt that is not base64';
    if (field !== 'schemaVersion' && value !== undefined && typeof value !== 'string') return `has a metadata ${field} that is not a string`;
    if (field === 'payloadSha256' && value !== undefined && !SHA256_HEX.test(String(value)))
      return 'has a metadata payloadSha256 that is not 64 lower-case hex digits';
  }
  if (!('schemaVersion' in metadata)) return 'has no metadata schemaVersion';
  return null;
}

/**
 * Why the store must refuse this append before writing anything (no events, an id that is not
 * a lower-case UUID or repeats within the append, metadata that is not an EventMetadata), or null.
 */
export function invalidAppend(streamId: string, events: readonly NewEvent[]): InvalidAppendError | null {
  if (events.length === 0) return new InvalidAppendError(streamId, null, 'has no events');
  const ids = new Set<string>();
  for (const event of events) {
    if (!UUID.test(event.id)) return new InvalidAppendError(streamId, event.id, 'has an id that is not a lower-case UUID');
    if (ids.has(event.id)) return new InvalidAppendError(streamId, event.id, 'appears twice in one append');
    ids.add(event.id);
    const problem = metadataProblem(event.metadata);
    if (problem !== null) return new InvalidAppendError(streamId, event.id, problem);
  }
  return null;
}

/**
 * An event's metadata as stored, read back the same way by every adapter: the declared fields
 * only. Throws when it has no numeric schemaVersion (written by other software), so a
 * projection reports the event instead of guessing.
 */
export function readEventMetadata(raw: unknown, eventId: string): EventMetadata {
  if (typeof raw !== 'object' || raw === null || raw instanceof Uint8Array) throw new Error(`event ${eventId} has no readable metadata`);
  if (!('schemaVersion' in raw) || typeof raw.schemaVersion !== 'number') throw new Error(`event ${eventId} has no metadata schemaVersion`);
  return {
    ...('requestId' in raw && typeof raw.requestId === 'string' ? { requestId: raw.requestId } : {}),
    ...('clientAddressClass' in raw && typeof raw.clientAddressClass === 'string' ? { clientAddressClass: raw.clientAddressClass } : {}),
    ...('payloadSha256' in raw && typeof raw.payloadSha256 === 'string' ? { payloadSha256: raw.payloadSha256 } : {}),
    ...('logFacts' in raw && logFactsOf(raw.logFacts) !== null ? { logFacts: logFactsOf(raw.logFacts)! } : {}),
    ...('dataSalt' in raw && typeof raw.dataSalt === 'string' ? { dataSalt: raw.dataSalt } : {}),
    ...('publicLog' in raw && raw.publicLog === false ? { publicLog: false } : {}),
    schemaVersion: raw.schemaVersion,
  };
}

const VIAS: readonly LogFacts['via'][] = ['POST', 'PUT', 'DELETE', 'operator'];

/** `value` as LogFacts (only their members, each one of its values), or null when it is not. */
function logFactsOf(value: unknown): LogFacts | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { via, protection, credential, ...rest } = value as Record<string, unknown>;
  const facts: LogFacts = { via: VIAS.find((one) => one === via) ?? 'operator' };
  if (!VIAS.includes(via as LogFacts['via']) || Object.keys(rest).length > 0) return null;
  if (protection !== undefined) {
    if (protection !== 'protected' && protection !== 'unprotected') return null;
    facts.protection = protection;
  }
  if (credential !== undefined) {
    if (credential !== 'bound' && credential !== 'matched' && credential !== 'none') return null;
    facts.credential = credential;
  }
  return facts;
}
