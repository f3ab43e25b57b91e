import { type MatchSummary, summarizeMatchText } from '../../../domain/matchPayload.js';
import type { EventStore } from '../../../eventstore/eventStore.js';
import { createLru } from '../../../platform/lru.js';
import { type PublicViewDoc, readPublicPayload } from '../../../../projections/publicView.js';
import type { RenderedCache } from '../../renderedPages.js';
import { renderedKeys, versionKey } from '../../renderedKeys.js';
import type { TeamNames } from '../views/matchParts/matchPageView.js';

/** A version's summary, or what summarising it threw, thrown again by the render that asks for it. */
export type SummaryOf = () => MatchSummary;

/**
 * The summaries the match pages are rendered from, one place for all of them (page, its live
 * part, embed, pages of plays, card, `?revision=N`, the history page's privacy): a version is
 * read from the log and summarised once while the rendered cache keeps it (RenderedCache.summaries),
 * however many renderings ask, at once or one after another. A summary is given as a function
 * that throws what summarising threw, so that the render that calls it fails (and is kept as
 * its error page) while a failed read of the store is not kept.
 */
export function createMatchSummaries({ cache, eventStore }: { cache: RenderedCache; eventStore: EventStore }) {
  const { stage } = cache;
  const summarizing = new Map<string, Promise<SummaryOf>>();

  async function summaryAt(id: string, revision: number, payload: () => Promise<string> | string): Promise<SummaryOf> {
    const key = renderedKeys.summary(id, revision);
    const kept = cache.summaries.get(key)?.summary;
    if (kept !== undefined) return () => kept;
    const pending = summarizing.get(key);
    if (pending !== undefined) return pending;
    const making = (async () => {
      const text = await stage(payload);
      try {
        const summary = await stage(() => summarizeMatchText(text));
        cache.summaries.set(key, { summary, chars: text.length });
        return () => summary;
      } catch (error) {
        return () => {
          throw error;
        };
      }
    })();
    summarizing.set(key, making);
    try {
      return await making;
    } finally {
      summarizing.delete(key);
    }
  }

  /**
   * Team names for titles of documents projected before the public view kept them: from the
   * payload, once per version (a few hundred bytes each, 1,000 at most).
   */
  const olderTeams = createLru<TeamNames>(1000);
  async function teamsOf(doc: PublicViewDoc | null): Promise<TeamNames> {
    if (doc === null) return { home: { name: null }, away: { name: null } };
    if (doc.teams !== undefined) return { home: { name: doc.teams.home }, away: { name: doc.teams.away } };
    const key = versionKey(doc.id, doc.revision);
    const known = olderTeams.get(key);
    if (known !== undefined) return known;
    const { home, away } = summarizeMatchText(await readPublicPayload(eventStore, doc));
    const names = { home: { name: home.name }, away: { name: away.name } };
    olderTeams.set(key, names);
    return names;
  }

  return {
    /** The summary of version `revision` of match `id`, whose payload `payload` reads when it is not kept. */
    summaryAt,
    /** The summary of the current version. */
    current: (doc: PublicViewDoc) => summaryAt(doc.id, doc.revision, () => readPublicPayload(eventStore, doc)),
    teamsOf,
  };
}

export type MatchSummaries = ReturnType<typeof createMatchSummaries>;
