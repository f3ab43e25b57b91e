import { notFound } from '../domain/errors.js';
import { diffMatch, type MatchDiff } from '../domain/matchDiff.js';
import { matchStreamId } from '../domain/matchId.js';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import { type PublicEvent, publicEvent } from './publicEvent.js';

/**
 * The auditor's view of a match, read from the log itself (never from a read model): every
 * event in order, each version's payload, and what changed from the version before.
 */
export interface HistoryEntry extends PublicEvent {
  /** For content events: the change from the previous version; null for the first version. */
  diff: MatchDiff | null;
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

const isContent = (event: RecordedEvent) => publicEvent(event).content !== null;

/** The payload of the last content event before `revision`, or undefined at the start. */
async function previousPayload(store: EventStore, streamId: string, revision: number): Promise<unknown> {
  for (let from = revision - 1; from >= 0; ) {
    const events = await store.readStream(streamId, { direction: 'backwards', fromRevision: from, maxCount: 16 });
    const content = events.find(isContent);
    if (content) return JSON.parse(publicEvent(content).content?.payloadText ?? 'null');
    const last = events.at(-1);
    if (!last) return undefined;
    from = last.revision - 1;
  }
  return undefined;
}

export async function readMatchHistory(store: EventStore, matchId: string, query: HistoryQuery): Promise<HistoryPage> {
  const streamId = matchStreamId(matchId);
  const [newest] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  const [first] = await store.readStream(streamId, { maxCount: 1 });
  if (!newest || !first) throw notFound(`no match with id "${matchId}"`);
  const window =
    query.order === 'oldest'
      ? await store.readStream(streamId, { fromRevision: query.from ?? 0, maxCount: query.limit + 1 })
      : await store.readStream(streamId, { direction: 'backwards', fromRevision: query.from ?? newest.revision, maxCount: query.limit + 1 });
  const page = window.slice(0, query.limit);
  const chronological = query.order === 'oldest' ? page : [...page].reverse();
  let previous = chronological[0] ? await previousPayload(store, streamId, chronological[0].revision) : undefined;
  const entries = chronological.map((event): HistoryEntry => {
    const entry = publicEvent(event);
    if (!entry.content) return { ...entry, diff: null };
    const payload: unknown = JSON.parse(entry.content.payloadText);
    const diff = previous === undefined ? null : diffMatch(previous, payload);
    previous = payload;
    return { ...entry, diff };
  });
  return {
    entries: query.order === 'oldest' ? entries : entries.reverse(),
    next: window[query.limit]?.revision ?? null,
    head: newest.revision,
    protected: publicEvent(first).content?.protection === 'protected',
  };
}

export interface MatchAtRevision {
  /** The content event in force at the asked revision. */
  version: PublicEvent & { content: NonNullable<PublicEvent['content']> };
  created: PublicEvent & { content: NonNullable<PublicEvent['content']> };
  head: number;
}

/** The match as it was at `revision`: the last content event at or before it. */
export async function readMatchAt(store: EventStore, matchId: string, revision: number): Promise<MatchAtRevision> {
  const streamId = matchStreamId(matchId);
  const [first] = await store.readStream(streamId, { maxCount: 1 });
  const [newest] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  if (!first || !newest) throw notFound(`no match with id "${matchId}"`);
  if (revision > newest.revision) throw notFound(`match "${matchId}" has no revision ${revision}; the latest is ${newest.revision}`);
  const created = publicEvent(first);
  if (!created.content) throw new Error(`${streamId} does not start with MatchCreated`);
  for (let from = revision; from >= 0; ) {
    const events = await store.readStream(streamId, { direction: 'backwards', fromRevision: from, maxCount: 16 });
    for (const event of events) {
      const version = publicEvent(event);
      if (version.content) return { version: { ...version, content: version.content }, created: { ...created, content: created.content }, head: newest.revision };
    }
    const last = events.at(-1);
    if (!last) break;
    from = last.revision - 1;
  }
  throw notFound(`match "${matchId}" has no version at revision ${revision}`);
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
