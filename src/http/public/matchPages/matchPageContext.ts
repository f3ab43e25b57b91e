import type { FastifyError, FastifyRequest } from 'fastify';
import { erasedNotice, gone, notFound } from '../../../domain/errors.js';
import { isMatchId } from '../../../domain/matchId.js';
import type { MatchSummary } from '../../../domain/matchPayload.js';
import { type MatchPrivacy, privateSummary } from '../../../domain/playerPrivacy.js';
import type { EventStore } from '../../../eventstore/eventStore.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import { type PublicViewDoc, readErasure, readPublicPayload } from '../../../../projections/publicView.js';
import { errorAnswer } from '../../errorHandling.js';
import type { MatchPrivacyReader } from '../../matchPrivacy.js';
import type { CurrentPublicView } from '../../publicViews.js';
import { type RenderedBody, type RenderedCache, renderedBody } from '../../renderedPages.js';
import type { PageRendering } from '../../renderedKeys.js';
import { renderEmbedMain, renderEmbedPage } from '../views/embedPage.js';
import { renderMatchErrorPage } from '../views/matchErrorPage.js';
import { renderMatchMain, renderMatchPage } from '../views/matchPage.js';
import type { MatchPageView } from '../views/matchParts/matchPageView.js';
import { createMatchSummaries, type MatchSummaries } from './matchSummaries.js';

export interface MatchPageDeps {
  readModel: ReadModelReader;
  currentPublicView: CurrentPublicView;
  eventStore: EventStore;
  /** The public address of a match's page (PUBLIC_BASE_URL + /match/id). */
  matchUrl: (id: string) => string;
  /**
   * When PUBLIC_BASE_URL is unset: the base a request was addressed to (its Host, requestBase.ts),
   * for the page's links, QR code and embed snippet; null keeps matchUrl's.
   */
  requestBase?: (request: FastifyRequest) => string | null;
  /** Whether to send compressed bytes (the app registers @fastify/compress too). */
  compress: boolean;
  /** Rendered bodies, in the byte budget shared with the API's answers (PAGE_CACHE_BYTES). */
  cache: RenderedCache;
  /** How the team a match syncs into lets its players be named (src/http/matchPrivacy.ts). */
  privacy: MatchPrivacyReader;
  /** The renderers; a test may replace one to see a failing render kept as its error page. */
  renderers?: Partial<Record<PageRendering, (view: MatchPageView) => string>>;
}

/**
 * What the routes of a match's resources (page, embed, card, QR code, history) share: their
 * dependencies, the one summary cache, how a missing match is answered, the address a page
 * hands out, the privacy a match is shown through, and a render guarded so that a failure is
 * kept as its error page.
 */
export function createMatchPageContext(deps: MatchPageDeps) {
  const { readModel, eventStore, matchUrl, requestBase, cache, privacy, renderers = {} } = deps;
  const summaries: MatchSummaries = createMatchSummaries({ cache, eventStore });
  /** The base a request was addressed to (PUBLIC_BASE_URL unset), which kept renderings are keyed by besides; null: the configured one. */
  const baseOf = (request: FastifyRequest) => requestBase?.(request) ?? null;
  const render: Record<PageRendering, (view: MatchPageView) => string> = {
    page: renderMatchPage,
    main: renderMatchMain,
    embed: renderEmbedPage,
    embedMain: renderEmbedMain,
    ...renderers,
  };

  /** Reads, summaries and renders share the event loop's turns with the API's (one costly stage a turn). */
  function guarded(request: FastifyRequest, make: () => string): Promise<RenderedBody> {
    return cache.stage(() => {
      try {
        return renderedBody(make());
      } catch (error) {
        const answered = errorAnswer((error instanceof Error ? error : new Error(String(error))) as FastifyError, request);
        return renderedBody(renderMatchErrorPage(answered), 'text/html; charset=utf-8', { status: answered.statusCode });
      }
    });
  }

  const shown = (summary: MatchSummary, privacy: MatchPrivacy | null) => (privacy === null ? summary : privateSummary(summary, privacy));

  return {
    ...deps,
    summaries,
    baseOf,
    /** The address a page hands out for a match. */
    urlFor(request: FastifyRequest, id: string) {
      const base = baseOf(request);
      return base === null ? matchUrl(id) : `${base}/match/${encodeURIComponent(id)}`;
    },
    /** A match that is not there: 410 when it was erased (saying when), else 404. */
    async noMatch(id: string) {
      const erased = isMatchId(id) ? await readErasure(readModel, id) : null;
      return erased !== null ? gone(erasedNotice(id, erased.erasedAt)) : notFound(`no match with id "${id}"`);
    },
    /** The privacy the current version's team asks for: every rendering of the match applies it, old versions too. */
    privacyOfDoc: (doc: PublicViewDoc) => privacy.privacyOf(doc.id, doc.revision, () => readPublicPayload(eventStore, doc)),
    shown,
    /** The current version as its pages show it. */
    viewOf: (doc: PublicViewDoc, summary: MatchSummary, quiet: boolean, privacy: MatchPrivacy | null, publicUrl: string): MatchPageView => ({
      quiet,
      id: doc.id,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      versions: doc.versions,
      protected: doc.protected,
      revision: doc.revision,
      publicUrl,
      summary: shown(summary, privacy),
    }),
    /**
     * `make()` rendered, or, when that throws, the error page of the app's one mapping (which
     * logs the failure). Only the render is guarded: a failed read of the store is not kept.
     */
    guarded,
    /** `view()` rendered as `rendering`, guarded. */
    rendered: (request: FastifyRequest, rendering: PageRendering, view: () => MatchPageView) => guarded(request, () => render[rendering](view())),
  };
}

export type MatchPageContext = ReturnType<typeof createMatchPageContext>;
