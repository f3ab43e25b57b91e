import { type ClubSyncEventType, decodeMatchEvent, type MatchEvent } from './matchEvents.js';
import { clubSyncDetails } from './clubSyncDetails.js';

/** The fields of an event as the log gives it (src/eventstore/eventStore.ts, RecordedEvent) that its public form is made from. */
export interface LoggedEvent {
  revision: number;
  position: number;
  type: string;
  /** JSON text. */
  data: string;
  recordedAt: string;
  metadata: { requestId?: string; clientAddressClass?: string };
  /** Its data was erased. */
  erased?: true;
}

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
    /** The SHA-256 digest stored with the version (src/domain/payloadDigest.ts); null for versions stored before digests were kept. */
    payloadDigest: string | null;
  } | null;
  /** Other events: their public fields, when this service knows them. */
  details: Record<string, unknown> | null;
}

/**
 * The public fields of each match-stream event type other than match content: a plain table,
 * complete at import (nothing to register), so the API, the CLI and the workers all see the same.
 */
export const PUBLIC_DETAILS: Readonly<Record<ClubSyncEventType, (data: string) => Record<string, unknown>>> = {
  ClubSyncAccepted: (data) => clubSyncDetails('ClubSyncAccepted', data),
  ClubSyncUnauthenticated: (data) => clubSyncDetails('ClubSyncUnauthenticated', data),
  ClubSyncSkipped: (data) => clubSyncDetails('ClubSyncSkipped', data),
};

const hasPublicDetails = (type: string): type is keyof typeof PUBLIC_DETAILS => Object.hasOwn(PUBLIC_DETAILS, type);

function contentOf(event: MatchEvent): PublicEvent['content'] {
  return event.type === 'MatchCreated'
    ? { via: event.data.createdVia, protection: event.data.protection, payloadText: event.data.payload, payloadDigest: event.data.payloadDigest ?? null }
    : { via: event.data.replacedVia, protection: null, payloadText: event.data.payload, payloadDigest: event.data.payloadDigest ?? null };
}

export function publicEvent(recorded: LoggedEvent): PublicEvent {
  // An erased version (docs/auditing.md) shows when and how it came, not what it held.
  const match = recorded.erased ? null : decodeMatchEvent(recorded.type, recorded.data);
  return {
    revision: recorded.revision,
    position: recorded.position,
    type: recorded.type,
    recordedAt: recorded.recordedAt,
    requestId: recorded.metadata.requestId ?? null,
    clientAddressClass: recorded.metadata.clientAddressClass ?? null,
    content: match ? contentOf(match) : null,
    details: recorded.erased ? { erased: true } : match === null && hasPublicDetails(recorded.type) ? PUBLIC_DETAILS[recorded.type](recorded.data) : null,
  };
}
