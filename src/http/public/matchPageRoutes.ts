import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { erasedNotice, gone, notFound } from '../../domain/errors.js';
import { isMatchId } from '../../domain/matchId.js';
import { type MatchSummary, summarizeMatchText } from '../../domain/matchPayload.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import { readMatchHistory } from '../../history/historyQueries.js';
import type { ReadModelReader } from '../../readmodel/readModel.js';
import { type PublicViewDoc, readErasure, readPublicPayload } from '../../../projections/publicView.js';
import { renderEmbedMain, renderEmbedPage } from './views/embedPage.js';
import { renderHistoryPage } from './views/historyPage.js';
import { leavesOfStream } from '../../history/logProofs.js';
import { matchStreamId } from '../../domain/matchId.js';
import { EMBED_CSP, LIVE_PAGE_CSP } from '../views/layout.js';
import { renderMatchMain, renderMatchPage, renderPlaysPage } from './views/matchPage.js';
import { renderMatchErrorPage } from './views/matchErrorPage.js';
import type { MatchPageView, TeamNames } from './views/matchParts/matchPageView.js';
import type { CurrentPublicView } from '../publicViews.js';
import { errorAnswer, pageErrorHandler } from '../errorHandling.js';
import { allowFraming } from '../securityHeaders.js';
import { createLru } from '../../platform/lru.js';
import { cachedBody, type RenderedBody, type RenderedCache, renderedBody, sendRendered } from '../renderedPages.js';
import type { MatchPrivacyReader } from '../matchPrivacy.js';
import { type MatchPrivacy, privacyKey, privateDiff, privateSummary, replacementsOf } from '../../domain/playerPrivacy.js';
import { oldVersionBody, oldVersionCaching } from '../oldVersionBodies.js';
import { isQuiet, shownStatus } from './views/matchStatus.js';
import { shareCardPng, shareCardSvg } from './views/shareCard.js';
import { CardQuery, EmbedQuery, HistoryPageQuery, MatchPageQuery } from './pageSchemas.js';

type Rendering = 'page' | 'main' | 'embed' | 'embedMain';

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
  /** The renderers; a test replaces one to see a failing render kept as its error page. */
  renderers?: Partial<Record<Rendering, (view: MatchPageView) => string>>;
}

/**
 * The public pages of a match: server-rendered HTML that works without JavaScript; one
 * same-origin script adds live updates. Every page is rendered once per revision, the current
 * and the old ones alike, and kept as bytes (and compressed bytes) with an ETag for conditional
 * GETs; a render that fails is kept as its error page, so repeating the request costs nothing.
 */
export const matchPage: FastifyPluginAsync<MatchPageDeps> = async (
  app,
  { readModel, currentPublicView, eventStore, matchUrl, requestBase, compress, cache, privacy, renderers = {} },
) => {
  /** The address a page hands out for a match, and what its kept renderings are keyed by besides. */
  const baseOf = (request: FastifyRequest) => requestBase?.(request) ?? null;
  const urlFor = (request: FastifyRequest, id: string) => {
    const base = baseOf(request);
    return base === null ? matchUrl(id) : `${base}/match/${encodeURIComponent(id)}`;
  };
  const baseKey = (request: FastifyRequest) => {
    const base = baseOf(request);
    return base === null ? '' : `\0${base}`;
  };
  app.addHook('onRequest', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', LIVE_PAGE_CSP).header('x-content-type-options', 'nosniff');
  });

  // The app's one error mapping, rendered as a page (a missing match is the HTML 404).
  app.setErrorHandler(pageErrorHandler(renderMatchErrorPage));
  /** A match that is not there: 410 when it was erased (saying when), else 404. */
  const noMatch = async (id: string) => {
    const erased = isMatchId(id) ? await readErasure(readModel, id) : null;
    return erased !== null ? gone(erasedNotice(id, erased.erasedAt)) : notFound(`no match with id "${id}"`);
  };
  const throwNotFound = (message: string): never => {
    throw notFound(message);
  };

  const RENDER: Record<Rendering, (view: MatchPageView) => string> = {
    page: renderMatchPage,
    main: renderMatchMain,
    embed: renderEmbedPage,
    embedMain: renderEmbedMain,
    ...renderers,
  };

  /**
   * `view()` rendered, or, when that throws, the error page of the app's one mapping (which
   * logs the failure). Only the render is guarded: a failed read of the store is not kept.
   */
  function rendered(request: FastifyRequest, rendering: Rendering, view: () => MatchPageView): Promise<RenderedBody> {
    return guarded(request, () => RENDER[rendering](view()));
  }

  /** Reads, summaries and renders share the event loop's turns with the API's (one costly stage a turn). */
  const { stage } = cache;

  function guarded(request: FastifyRequest, render: () => string): Promise<RenderedBody> {
    return stage(() => guardedNow(request, render));
  }

  function guardedNow(request: FastifyRequest, render: () => string): RenderedBody {
    try {
      return renderedBody(render());
    } catch (error) {
      const answered = errorAnswer((error instanceof Error ? error : new Error(String(error))) as FastifyError, request);
      return renderedBody(renderMatchErrorPage(answered), 'text/html; charset=utf-8', { status: answered.statusCode });
    }
  }

  /**
   * One summary per version for every render of it (page, its live part, embed, pages of plays,
   * card, `?revision=N`): a version is read from the log and summarised once while the rendered
   * cache keeps it, however many renderings ask, at once or one after another. It is given as
   * a function that throws what summarising threw, so that the render that calls it fails (and
   * is kept as its error page) while a failed read of the store is not kept.
   */
  const summarizing = new Map<string, Promise<() => MatchSummary>>();
  async function summaryAt(id: string, revision: number, payload: () => Promise<string> | string): Promise<() => MatchSummary> {
    const key = `summary\0${id}\0${revision}`;
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
  const currentSummary = (doc: PublicViewDoc) => summaryAt(doc.id, doc.revision, () => readPublicPayload(eventStore, doc));
  /** The privacy the current version's team asks for: every rendering of the match applies it, old versions too. */
  const privacyOfDoc = (doc: PublicViewDoc) => privacy.privacyOf(doc.id, doc.revision, () => readPublicPayload(eventStore, doc));
  const shown = (summary: MatchSummary, privacy: MatchPrivacy | null) => (privacy === null ? summary : privateSummary(summary, privacy));

  const viewOf = (doc: PublicViewDoc, summary: MatchSummary, quiet: boolean, privacy: MatchPrivacy | null, publicUrl: string): MatchPageView => ({
    quiet,
    id: doc.id,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    versions: doc.versions,
    protected: doc.protected,
    revision: doc.revision,
    publicUrl,
    summary: shown(summary, privacy),
  });

  /**
   * The current version, rendered once per revision (a page depends only on its document).
   * While the public view's checkpoint has not moved, no document changed, so a kept page is
   * served after one small checkpoint read instead of reading the match's document.
   */
  async function current(request: FastifyRequest, id: string, rendering: Rendering): Promise<RenderedBody | null> {
    const doc = await currentPublicView(id);
    if (doc === null) return null;
    // A "live" match with no upload for LIVE_WINDOW_MS is no longer shown live: one more render per match, keyed here.
    const quiet = isQuiet(doc.updatedAt, Date.now());
    const privacy = await privacyOfDoc(doc);
    const key = `page\0${doc.id}\0${doc.revision}\0${rendering}${quiet ? '\0quiet' : ''}${privacyKey(privacy)}${baseKey(request)}`;
    return cachedBody(request, cache, key, async () => {
      const summary = await currentSummary(doc);
      return rendered(request, rendering, () => viewOf(doc, summary(), quiet, privacy, urlFor(request, doc.id)));
    });
  }

  async function serveCurrent(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, rendering: Rendering) {
    const { id } = request.params;
    const body = isMatchId(id) ? await current(request, id, rendering) : null;
    if (body === null) throw await noMatch(id);
    // Revalidate every time: a live match changes from one minute to the next.
    reply.header('cache-control', 'no-cache');
    return sendRendered(request, reply, body, compress);
  }

  /** A page of plays of the current version (`?part=plays&page=N`), rendered once per revision and page. */
  async function servePlays(request: FastifyRequest<{ Params: { id: string }; Querystring: Static<typeof MatchPageQuery> }>, reply: FastifyReply) {
    const { id } = request.params;
    const number = request.query.page ?? 1;
    const doc = isMatchId(id) ? await currentPublicView(id) : null;
    if (doc === null) throw await noMatch(id);
    // A page past the last is kept as its 404 page, like a failed render: asking again costs nothing.
    const privacy = await privacyOfDoc(doc);
    const body = await cachedBody(request, cache, `plays\0${doc.id}\0${doc.revision}\0${number}${privacyKey(privacy)}`, async () => {
      const summary = await currentSummary(doc);
      return guarded(
        request,
        () =>
          renderPlaysPage(viewOf(doc, summary(), false, privacy, matchUrl(doc.id)), number) ?? throwNotFound(`match "${id}" has no page ${number} of plays`),
      );
    });
    reply.header('cache-control', 'no-cache');
    return sendRendered(request, reply, body, compress);
  }

  /**
   * An old version: what the log held at `revision`, rendered once per version it resolves to
   * (src/http/oldVersionBodies.ts). An erased match answers 410 before anything kept is looked at.
   */
  async function serveRevision(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, revision: number) {
    const { id } = request.params;
    const current = isMatchId(id) ? await currentPublicView(id) : null;
    if (current === null || (await readErasure(readModel, id)) !== null) throw await noMatch(id);
    const privacy = await privacyOfDoc(current);
    const { body, version } = await oldVersionBody(
      request,
      { cache, eventStore },
      'page',
      id,
      revision,
      privacyKey(privacy) + baseKey(request),
      async (old) => {
        const summary = await summaryAt(id, old.version.revision, () => old.version.content.payloadText);
        return rendered(request, 'page', () => ({
          id,
          createdAt: old.created.recordedAt,
          updatedAt: old.version.recordedAt,
          protected: old.created.content.protection === 'protected',
          revision: old.version.revision,
          publicUrl: urlFor(request, id),
          summary: shown(summary(), privacy),
          asOf: { revision: old.version.revision, latestRevision: old.head },
        }));
      },
    );
    oldVersionCaching(reply, version, current.revision, privacy !== null);
    return sendRendered(request, reply, body, compress);
  }

  app.get<{ Params: { id: string }; Querystring: Static<typeof MatchPageQuery> }>(
    '/match/:id',
    { schema: { hide: true, querystring: MatchPageQuery } },
    async (request, reply) => {
      if (request.query.revision !== undefined) return serveRevision(request, reply, request.query.revision);
      if (request.query.part === 'plays') return servePlays(request, reply);
      return serveCurrent(request, reply, request.query.part === 'main' ? 'main' : 'page');
    },
  );

  // Only the widget may be framed, by any site: its own CSP says so, without X-Frame-Options.
  app.get<{ Params: { id: string }; Querystring: Static<typeof EmbedQuery> }>(
    '/match/:id/embed',
    { schema: { hide: true, querystring: EmbedQuery } },
    async (request, reply) => {
      allowFraming(reply);
      reply.header('content-security-policy', EMBED_CSP);
      return serveCurrent(request, reply, request.query.part === 'main' ? 'embedMain' : 'embed');
    },
  );

  /** A card as a kept PNG body, drawn once per key. */
  const cardBody = (
    request: FastifyRequest,
    key: string,
    privacy: MatchPrivacy | null,
    draw: () => Promise<{ summary: () => MatchSummary; quiet: boolean; old: boolean }>,
  ) =>
    cachedBody(request, cache, key + privacyKey(privacy), async () => {
      const { summary: summaryOf, quiet, old } = await draw();
      const summary = shown(summaryOf(), privacy);
      const png = await shareCardPng(shareCardSvg(summary, shownStatus(summary.status, { quiet, old })));
      return { ...renderedBody('', 'image/png'), bytes: png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 22)}"` };
    });

  // The link preview image (og:image): the version a page shows (`?revision=N`, else the current
  // one) as a PNG card, made once per revision and kept with the pages.
  app.get<{ Params: { id: string }; Querystring: Static<typeof CardQuery> }>(
    '/match/:id/card.png',
    { schema: { hide: true, querystring: CardQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const doc = isMatchId(id) ? await currentPublicView(id) : null;
      if (doc === null) throw await noMatch(id);
      const asked = request.query.revision ?? doc.revision;
      const privacy = await privacyOfDoc(doc);
      let body: RenderedBody;
      if (asked === doc.revision) {
        const quiet = isQuiet(doc.updatedAt, Date.now());
        body = await cardBody(request, `card\0${doc.id}\0${doc.revision}${quiet ? '\0quiet' : ''}`, privacy, async () => ({
          summary: await currentSummary(doc),
          quiet,
          old: false,
        }));
      } else {
        const old = await cache.oldVersions.read(eventStore, request.ip, id, asked);
        body = await cardBody(request, `card\0${id}\0${old.version.revision}\0old`, privacy, async () => ({
          summary: await summaryAt(id, old.version.revision, () => old.version.content.payloadText),
          quiet: false,
          old: true,
        }));
      }
      // Previews fetch the card once; each page names its revision's card, so a later version is a new address.
      reply.header('cache-control', 'public, max-age=300').header('content-security-policy', "default-src 'none'");
      return sendRendered(request, reply, body, false);
    },
  );

  app.get<{ Params: { id: string } }>('/match/:id/qr.svg', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    if (!isMatchId(id) || (await currentPublicView(id)) === null) throw await noMatch(id);
    const body = await cachedBody(request, cache, `qr\0${id}${baseKey(request)}`, async () => {
      // Loaded on the first QR code (~10 MB resident), not at start.
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(urlFor(request, id), {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
        color: { dark: '#000000', light: '#ffffff' },
      });
      return renderedBody(svg, 'image/svg+xml');
    });
    reply.header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return sendRendered(request, reply, body, compress);
  });

  /**
   * Team names for titles of documents projected before the public view kept them: from the
   * payload, once per version (a few hundred bytes each, 1,000 at most).
   */
  const olderTeams = createLru<TeamNames>(1000);
  async function teamsOf(doc: PublicViewDoc | null): Promise<TeamNames> {
    if (doc === null) return { home: { name: null }, away: { name: null } };
    if (doc.teams !== undefined) return { home: { name: doc.teams.home }, away: { name: doc.teams.away } };
    const key = `${doc.id}\0${doc.revision}`;
    const known = olderTeams.get(key);
    if (known !== undefined) return known;
    const { home, away } = summarizeMatchText(await readPublicPayload(eventStore, doc));
    const names = { home: { name: home.name }, away: { name: away.name } };
    olderTeams.set(key, names);
    return names;
  }

  // The timeline needs only the team names of the current version, which the public view keeps: no payload is read.
  app.get<{ Params: { id: string }; Querystring: Static<typeof HistoryPageQuery> }>(
    '/match/:id/history',
    { schema: { hide: true, querystring: HistoryPageQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const { order = 'newest', from } = request.query;
      if (!isMatchId(id)) throw await noMatch(id);
      const page = await readMatchHistory(readModel, id, { order, limit: 50, ...(from === undefined ? {} : { from }) });
      const revisions = page.entries.map((entry) => entry.revision);
      const logIndexes =
        revisions.length === 0 ? new Map<number, number>() : await leavesOfStream(readModel, matchStreamId(id), Math.min(...revisions), Math.max(...revisions));
      const doc = await currentPublicView(id);
      const privacy = doc === null ? null : await privacyOfDoc(doc);
      const replacements = doc === null || privacy === null ? [] : replacementsOf((await currentSummary(doc))(), privacy);
      const entries = page.entries.map((entry) => (entry.diff === null ? entry : { ...entry, diff: privateDiff(entry.diff, replacements) }));
      if (privacy !== null) reply.header('cache-control', 'no-cache');
      return renderHistoryPage({ id, order, page: { ...page, entries }, teams: await teamsOf(doc), logIndexes });
    },
  );
};
