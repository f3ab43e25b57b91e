import type { JsonText } from '../src/domain/jsonText.js';
import { matchTeamNames, matchTeamNamesAfter, type TeamNames } from '../src/domain/matchPayload.js';
import { decodeMatchErased, decodeMatchEvent, type MatchEvent } from '../src/domain/matchEvents.js';
import { matchIdOfStream, matchStreamId } from '../src/domain/matchId.js';
import type { EventStore, RecordedEvent } from '../src/eventstore/eventStore.js';
import { type ReadModelReader, collectionOf } from '../src/readmodel/readModel.js';
import { defineProjection, doneOffLoop, type ProjectionView } from './projection.js';

export const PUBLIC_VIEW = collectionOf<PublicViewDoc>('publicView');
/** Erased matches (docs/auditing.md): their pages and API answer 410 Gone, saying when. */
const ERASED_MATCHES = collectionOf<ErasedMatchDoc>('erasedMatches');

export interface ErasedMatchDoc {
  id: string;
  erasedAt: string;
  /** Revision of the MatchErased event. */
  revision: number;
}

/** The matches a commit's changes erased (this process's projections: src/http/erasureSweep.ts lets go of what it kept of them). */
export const erasedIn = (changes: readonly { collection: string; id: string; doc: unknown }[]) =>
  changes.filter((change) => change.collection === ERASED_MATCHES && change.doc !== null).map((change) => change.id);

/** The ids of the `limit` matches erased last (a process that did not commit them learns of them so). */
export const newestErasures = async (reader: Pick<ReadModelReader, 'find'>, limit: number) =>
  (await reader.find(ERASED_MATCHES, { orderBy: [{ field: 'erasedAt', direction: 'desc' }], limit })).map((doc) => doc.id);

/** When the match was erased, or null when it was not. */
export const readErasure = (reader: Pick<ReadModelReader, 'get'>, id: string) => reader.get(ERASED_MATCHES, id);

/**
 * What anyone may see of a match: when and how it changed, and where its payload as last
 * uploaded is. The payload itself stays in the log only (stored once, as sent): `revision`
 * names the event that carries it, and readers take it from there (readPublicPayload).
 */
export interface PublicViewDoc {
  id: string;
  /** Stream revision of the event that last changed the match, and carries its payload. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  protected: boolean;
  /** How many versions the match has had: 1 after creation, +1 per replacement. */
  versions: number;
  /**
   * The current version's team names (at most TEAM_NAME_MAX characters each), so that titles
   * (the history page) need no payload. Absent on documents projected by older releases.
   */
  teams?: TeamNames;
}

/**
 * The team names of a match event's payload: from the body the request that wrote it parsed,
 * else read from its text without parsing the rest (a rebuild reads every version), off the event
 * loop when the view has where and the text is large (a 290,000-key payload's scan takes ~35 ms).
 */
async function teamsOf(event: MatchEvent, recorded: RecordedEvent, view: Pick<ProjectionView, 'payloads' | 'offLoop' | 'memory'>): Promise<TeamNames> {
  const parsed = view.payloads.parsed(recorded.id);
  if (parsed !== undefined) return matchTeamNames(parsed.body);
  const { matchId, payload } = event.data;
  const offLoop = await doneOffLoop(view, payload, (work) => work.teamNames(payload));
  if (offLoop !== undefined) return offLoop;
  // What the scan of the match's latest text skipped (the runner's memory): a rebuild over a live match scans ~0.1 ms of its 60 KB versions.
  const { names, skipped } = matchTeamNamesAfter(payload, view.memory.teamScans.get(matchId) ?? null);
  view.memory.teamScans.set(matchId, skipped);
  return names;
}

/** Reads a match's public view; documents in this collection are only ever written below. */
export async function readPublicView(reader: Pick<ReadModelReader, 'get'>, id: string): Promise<PublicViewDoc | null> {
  return await reader.get(PUBLIC_VIEW, id);
}

/** A public view with its payload's JSON text, exactly as uploaded. */
type PublicMatch = PublicViewDoc & { payload: JsonText };

/**
 * The payload a public view refers to, read from the event at its revision. The log keeps every
 * event forever, so the reference never dangles; a missing event means a broken store.
 */
export async function readPublicPayload(eventStore: Pick<EventStore, 'readStream'>, doc: PublicViewDoc): Promise<JsonText> {
  const [event] = await eventStore.readStream(matchStreamId(doc.id), { fromRevision: doc.revision, maxCount: 1 });
  const content = event?.revision === doc.revision ? decodeMatchEvent(event.type, event.data) : null;
  if (content === null) throw new Error(`the log has no payload for match ${doc.id} at revision ${doc.revision}`);
  return content.data.payload;
}

/**
 * A match's public view and its payload, or null when there is no such match.
 * @public test/bench/sse.mjs loads it from the build (dist/), where the dead-code check cannot follow.
 */
export async function readPublicMatch(
  reader: Pick<ReadModelReader, 'get'>,
  eventStore: Pick<EventStore, 'readStream'>,
  id: string,
): Promise<PublicMatch | null> {
  const doc = await readPublicView(reader, id);
  return doc === null ? null : { ...doc, payload: await readPublicPayload(eventStore, doc) };
}

/** The document after `event`, or the same document if the event was already applied; `teams` reads its team names. */
async function evolvePublicView(
  doc: PublicViewDoc | null,
  event: MatchEvent,
  recorded: RecordedEvent,
  teams: () => Promise<TeamNames>,
): Promise<PublicViewDoc | null> {
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
        teams: await teams(),
      };
    case 'MatchReplaced':
      if (doc === null) return null;
      return { ...doc, revision: recorded.revision, updatedAt: recorded.recordedAt, versions: doc.versions + 1, teams: await teams() };
  }
}

export const publicViewProjection = defineProjection({
  name: PUBLIC_VIEW,
  collections: [PUBLIC_VIEW, ERASED_MATCHES],
  indexes: [],
  canHandle: ['MatchCreated', 'MatchReplaced', 'MatchErased'],
  changedBy: ['MatchCreated', 'MatchReplaced', 'MatchErased'],
  reads(recorded) {
    const matchId = recorded.type === 'MatchReplaced' ? matchIdOfStream(recorded.streamId) : null;
    return matchId === null ? [] : [{ collection: PUBLIC_VIEW, id: matchId }];
  },
  async apply(recorded, view) {
    // An erased version shows nothing; its MatchErased takes the match's view away.
    if (recorded.erased) return;
    const erasure = decodeMatchErased(recorded.type, recorded.data);
    if (erasure !== null) {
      // The scans kept hold payload texts; an erased match's may not stay in memory (others are scanned again).
      view.memory.teamScans.deleteWhere(() => true);
      view.delete(PUBLIC_VIEW, erasure.data.matchId);
      view.put(ERASED_MATCHES, { id: erasure.data.matchId, erasedAt: recorded.recordedAt, revision: recorded.revision });
      return;
    }
    const event = decodeMatchEvent(recorded.type, recorded.data);
    if (event === null) return;
    // A creation depends on nothing stored, so it reads nothing: if the match's document is
    // there already, it comes from this event or a later one, and the store keeps it.
    const current = event.type === 'MatchCreated' ? null : await readPublicView(view, event.data.matchId);
    const next = await evolvePublicView(current, event, recorded, () => teamsOf(event, recorded, view));
    if (next !== null && next !== current) view.put(PUBLIC_VIEW, next);
  },
});
