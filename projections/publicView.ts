import type { JsonText } from '../src/domain/jsonText.js';
import { decodeMatchEvent, type MatchEvent } from '../src/domain/matchEvents.js';
import { matchIdOfStream } from '../src/domain/matchId.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import type { ReadModelReader } from '../src/readmodel/port.js';
import type { Projection } from './projection.js';

export const PUBLIC_VIEW = 'publicView';

/** What anyone may see of a match: its payload as last uploaded, and when and how it changed. */
export interface PublicViewDoc {
  [field: string]: unknown;
  id: string;
  /** Stream revision of the event that last changed the match. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  protected: boolean;
  /** How many versions the match has had: 1 after creation, +1 per replacement. */
  versions: number;
  /** The payload's JSON text, exactly as uploaded. */
  payload: JsonText;
}

/** Reads a match's public view; documents in this collection are only ever written below. */
export async function readPublicView(reader: Pick<ReadModelReader, 'get'>, id: string): Promise<PublicViewDoc | null> {
  return (await reader.get(PUBLIC_VIEW, id)) as PublicViewDoc | null;
}

/** Pure: the document after `event`, or the same document if the event was already applied. */
export function evolvePublicView(doc: PublicViewDoc | null, event: MatchEvent, recorded: RecordedEvent): PublicViewDoc | null {
  if (doc !== null && doc.revision >= recorded.revision) return doc;
  switch (event.type) {
    case 'MatchCreated':
      return {
        id: event.data.matchId,
        revision: recorded.revision,
        createdAt: recorded.recordedAt,
        updatedAt: recorded.recordedAt,
        protected: event.data.protection === 'protected',
        versions: 1,
        payload: event.data.payload,
      };
    case 'MatchReplaced':
      if (doc === null) return null;
      return { ...doc, revision: recorded.revision, updatedAt: recorded.recordedAt, versions: doc.versions + 1, payload: event.data.payload };
  }
}

export const publicViewProjection: Projection = {
  name: PUBLIC_VIEW,
  collections: [PUBLIC_VIEW],
  indexes: [],
  reads(recorded) {
    const matchId = recorded.type === 'MatchReplaced' ? matchIdOfStream(recorded.streamId) : null;
    return matchId === null ? [] : [{ collection: PUBLIC_VIEW, id: matchId }];
  },
  async apply(recorded, view) {
    const event = decodeMatchEvent(recorded.type, recorded.data);
    if (event === null) return;
    // A creation depends on nothing stored, so it reads nothing: if the match's document is
    // there already, it comes from this event or a later one, and the store keeps it.
    const current = event.type === 'MatchCreated' ? null : await readPublicView(view, event.data.matchId);
    const next = evolvePublicView(current, event, recorded);
    if (next !== null && next !== current) view.put(PUBLIC_VIEW, next);
  },
};
