import { decodeMatchEvent, type MatchEvent } from '../domain/matchEvents.js';
import type { RecordedEvent } from '../eventstore/eventStore.js';

/**
 * What the history of a match may show of one stored event. Built field by field from the
 * decoded event, so hashes and anything not listed here never leave the service.
 */
export interface PublicEvent {
  revision: number;
  position: number;
  type: string;
  recordedAt: string;
  requestId: string | null;
  clientAddressClass: string | null;
  /** Match content events: how the upload came, and the payload it stored. */
  content: {
    via: 'POST' | 'PUT';
    /** Only on MatchCreated: the protection fixed at creation. */
    protection: 'protected' | 'unprotected' | null;
    payloadText: string;
  } | null;
  /** Other events: their public fields, when this service knows them. */
  details: Record<string, unknown> | null;
}

/** Public fields of event types other than match content, by type. */
const detailReaders: Record<string, (data: string) => Record<string, unknown>> = {};

/** Lets another part of the service (e.g. club sync) say what of its events is public. */
export function registerPublicDetails(type: string, read: (data: string) => Record<string, unknown>) {
  detailReaders[type] = read;
}

function contentOf(event: MatchEvent): PublicEvent['content'] {
  return event.type === 'MatchCreated'
    ? { via: event.data.createdVia, protection: event.data.protection, payloadText: event.data.payload }
    : { via: event.data.replacedVia, protection: null, payloadText: event.data.payload };
}

export function publicEvent(recorded: RecordedEvent): PublicEvent {
  const match = decodeMatchEvent(recorded.type, recorded.data);
  const read = detailReaders[recorded.type];
  return {
    revision: recorded.revision,
    position: recorded.position,
    type: recorded.type,
    recordedAt: recorded.recordedAt,
    requestId: recorded.metadata.requestId ?? null,
    clientAddressClass: recorded.metadata.clientAddressClass ?? null,
    content: match ? contentOf(match) : null,
    details: match ? null : read ? read(recorded.data) : null,
  };
}
