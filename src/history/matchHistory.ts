import { notFound } from '../domain/errors.js';
import { diffMatch, type MatchDiff } from '../domain/matchDiff.js';
import { matchStreamId } from '../domain/matchId.js';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import { createLru } from '../lru.js';
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

/**
 * A version's diff never changes, so each is computed once per process and kept (keyed by
 * stream and revision); a page reads at most this many bytes of payload to compute new ones,
 * and ends early beyond it (its `next` continues), so one request's CPU is bounded.
 */
const DIFFS_KEPT = 20_000;
export const HISTORY_WORK_BYTES = 16 * 1024 * 1024;
const diffsByStore = new WeakMap<EventStore, ReturnType<typeof createLru<{ diff: MatchDiff | null }>>>();

function diffsOf(store: EventStore) {
  let diffs = diffsByStore.get(store);
  if (diffs === undefined) {
    diffs = createLru<{ diff: MatchDiff | null }>(DIFFS_KEPT);
    diffsByStore.set(store, diffs);
  }
  return diffs;
}

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
  const wanted = window.slice(0, query.limit);
  const entries = await withDiffs(store, streamId, wanted);
  // A page cut short by the work budget goes on from its first left-out event.
  const next = entries.length < wanted.length ? wanted[entries.length]!.revision : (window[query.limit]?.revision ?? null);
  return { entries, next, head: newest.revision, protected: publicEvent(first).content?.protection === 'protected' };
}

/** Entries in page order, each with its diff: known ones from memory, new ones within the work budget. */
async function withDiffs(store: EventStore, streamId: string, inPageOrder: RecordedEvent[]): Promise<HistoryEntry[]> {
  const diffs = diffsOf(store);
  const out: HistoryEntry[] = [];
  let work = 0;
  for (const event of inPageOrder) {
    const entry = publicEvent(event);
    if (!entry.content) {
      out.push({ ...entry, diff: null });
      continue;
    }
    const key = `${streamId}@${event.revision}`;
    const known = diffs.get(key);
    if (known !== undefined) {
      out.push({ ...entry, diff: known.diff });
      continue;
    }
    // Each new diff parses this version and the one before it.
    work += entry.content.payloadText.length * 2;
    if (work > HISTORY_WORK_BYTES && out.length > 0) break;
    const previous = await previousPayload(store, streamId, event.revision);
    const diff = previous === undefined ? null : diffMatch(previous, JSON.parse(entry.content.payloadText));
    diffs.set(key, { diff });
    out.push({ ...entry, diff });
  }
  return out;
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
