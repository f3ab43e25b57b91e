import { notFound } from '../domain/errors.js';
import type { MatchDiff } from '../domain/matchDiff.js';
import { matchStreamId } from '../domain/matchId.js';
import type { EventStore, RecordedEvent } from '../eventstore/eventStore.js';
import type { ReadModelReader } from '../readmodel/readModel.js';
import { type MatchHistoryDoc, readHistoryEntries } from '../readmodel/matchHistoryDocs.js';
import { type PublicEvent, publicEvent } from '../domain/publicEvent.js';

/**
 * The auditor's view of a match: every event in order, how each write came, and what changed
 * from the version before. Entries come from the matchHistory projection, which computed each
 * diff once; a version's payload is read from the log itself (readMatchAt).
 */
export interface HistoryEntry {
  revision: number;
  position: number;
  type: string;
  recordedAt: string;
  requestId: string | null;
  clientAddressClass: string | null;
  /** Match content events: how the upload came, and the protection fixed at creation. */
  content: { via: 'POST' | 'PUT'; protection: 'protected' | 'unprotected' | null } | null;
  /** For content events: the change from the previous version; null for the first version. */
  diff: MatchDiff | null;
  /** Other events: their public fields. */
  details: Record<string, unknown> | null;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Revision to pass as `from` for the next page; null on the last page. */
  next: number | null;
  /** The newest revision of the stream. */
  head: number;
  /** Fixed at creation: when true, every later version was written with the match's token. */
  protected: boolean;
}

export interface HistoryQuery {
  order: 'oldest' | 'newest';
  limit: number;
  /** First revision of the page (inclusive), in the page's order. */
  from?: number;
}

const entryOf = (doc: MatchHistoryDoc): HistoryEntry => ({
  revision: doc.revision,
  position: doc.position,
  type: doc.type,
  recordedAt: doc.recordedAt,
  requestId: doc.requestId,
  clientAddressClass: doc.clientAddressClass,
  content: doc.via === null ? null : { via: doc.via, protection: doc.protection },
  diff: doc.diff,
  details: doc.details,
});

/** Every event of a match's stream has an entry, so an entry's place in the list is its revision. */
export async function readMatchHistory(reader: Pick<ReadModelReader, 'find'>, matchId: string, query: HistoryQuery): Promise<HistoryPage> {
  const [newest] = await readHistoryEntries(reader, matchId, { order: 'newest', limit: 1, offset: 0 });
  const [first] = await readHistoryEntries(reader, matchId, { order: 'oldest', limit: 1, offset: 0 });
  if (!newest || !first) throw notFound(`no match with id "${matchId}"`);
  const offset = query.order === 'oldest' ? (query.from ?? 0) : newest.revision - (query.from ?? newest.revision);
  const window = offset < 0 ? [] : await readHistoryEntries(reader, matchId, { order: query.order, limit: query.limit + 1, offset });
  return {
    entries: window.slice(0, query.limit).map(entryOf),
    next: window[query.limit]?.revision ?? null,
    head: newest.revision,
    protected: first.protection === 'protected',
  };
}

export interface MatchAtRevision {
  /** The content event in force at the asked revision. */
  version: PublicEvent & { content: NonNullable<PublicEvent['content']> };
  created: PublicEvent & { content: NonNullable<PublicEvent['content']> };
  head: number;
}

/**
 * The match as it was at `revision`: the last content event at or before it. Reads the newest
 * event, then back from `revision` one event, then 2, 4, … up to 16 at a time (the asked
 * revision is nearly always a version itself), and the first event unless it was read already:
 * each read of a version decodes its payload (megabytes for the largest), so none is read twice.
 */
export async function readMatchAt(store: Pick<EventStore, 'readStream'>, matchId: string, revision: number): Promise<MatchAtRevision> {
  const streamId = matchStreamId(matchId);
  const [newest] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  if (!newest) throw notFound(`no match with id "${matchId}"`);
  if (revision > newest.revision) throw notFound(`match "${matchId}" has no revision ${revision}; the latest is ${newest.revision}`);
  const read = new Map<number, RecordedEvent>([[newest.revision, newest]]);
  const version = await versionAt(store, streamId, revision, read);
  const firstEvent = read.get(0) ?? (await store.readStream(streamId, { maxCount: 1 }))[0];
  const first = firstEvent === undefined ? null : publicEvent(firstEvent);
  if (!first?.content) throw new Error(`${streamId} does not start with MatchCreated`);
  if (version === null) throw notFound(`match "${matchId}" has no version at revision ${revision}`);
  return { version, created: { ...first, content: first.content }, head: newest.revision };
}

type Version = MatchAtRevision['version'];

/** The last content event at or before `revision`, reading back from it; `read` holds the events read already and gets the ones read here. */
async function versionAt(store: Pick<EventStore, 'readStream'>, streamId: string, revision: number, read: Map<number, RecordedEvent>): Promise<Version | null> {
  for (let at = revision, count = 1; at >= 0; count = Math.min(count * 2, 16)) {
    const known = read.get(at);
    const events = known !== undefined ? [known] : await store.readStream(streamId, { direction: 'backwards', fromRevision: at, maxCount: count });
    for (const event of events) read.set(event.revision, event);
    for (const event of events) {
      const version = publicEvent(event);
      if (version.content) return { ...version, content: version.content };
    }
    const last = events.at(-1);
    if (!last) break;
    at = last.revision - 1;
  }
  return null;
}

/** Every event of the match, oldest first, a page at a time (for export and replay). */
export async function* matchEvents(store: EventStore, matchId: string, pageSize = 100): AsyncGenerator<PublicEvent> {
  const streamId = matchStreamId(matchId);
  for (let from = 0; ; ) {
    const events = await store.readStream(streamId, { fromRevision: from, maxCount: pageSize });
    for (const event of events) yield publicEvent(event);
    const last = events.at(-1);
    if (!last || events.length < pageSize) return;
    from = last.revision + 1;
  }
}
