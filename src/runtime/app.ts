import { createClubCommands } from '../commands/clubCommands.js';
import { createMatchCommands } from '../commands/matchCommands.js';
import type { Config } from './config.js';
import { createWriteTokenHasher } from '../domain/writeToken.js';
import type { Engine } from './engine.js';
import { clubDashboard, type ClubDashboardDeps } from '../http/dashboard/dashboardRoutes.js';
import { sessionKey } from '../http/dashboard/session.js';
import { health, maxReadyLag } from '../http/health.js';
import { historyApi } from '../http/api/historyApi.js';
import { createMatchPrivacy } from '../http/matchPrivacy.js';
import { clubPage } from '../http/public/clubPageRoutes.js';
import { teamPage } from '../http/public/teamPageRoutes.js';
import { teamFeeds } from '../http/public/teamFeedRoutes.js';
import { matchApi } from '../http/api/matchApi.js';
import { assets } from '../http/public/assets.js';
import { hostBase } from '../http/requestBase.js';
import { homePage } from '../http/public/homeRoutes.js';
import { liveUpdates } from '../http/public/liveUpdates.js';
import { createLiveStreamSlots } from '../http/public/liveStreamSlots.js';
import { matchPage } from '../http/public/matchPageRoutes.js';
import { createCurrentPublicView } from '../http/publicViews.js';
import { createRenderedCache, type RenderedCache } from '../http/renderedPages.js';
import { checkpointSignal } from '../live/changeSignal.js';
import { createMatchFeed } from '../live/matchFeed.js';
import { newestErasures, PUBLIC_VIEW } from '../../projections/publicView.js';
import { transparencyLogProjection } from '../../projections/transparencyLog.js';
import { redactUrl } from '../platform/redactUrl.js';
import { createErasureSweep, sweepCommittedErasures, sweepErasuresElsewhere } from '../http/erasureSweep.js';
import { createTokenFailureThrottle } from '../http/api/tokenFailures.js';
import { registerWriteRateLimit } from '../http/api/writeRateLimit.js';
import { watchCache, watchReadiness } from '../observability/cacheMetrics.js';
import { observeFeed } from '../observability/httpMetrics.js';
import { watchDataDir } from '../observability/metrics.js';
import { type Observability, observeUploads, unobserved } from '../observability/observability.js';
import { watchProjections } from '../observability/projectionMetrics.js';
import { buildFacts, watchService } from '../observability/serviceMetrics.js';
import { registerMetricsRoute } from '../observability/metricsToken.js';
import { logApi } from '../http/api/logApi.js';
import { logTilesApi } from '../http/api/logTilesApi.js';
import { eraseApi } from '../http/api/eraseApi.js';
import { createCheckpointSigner } from '../history/checkpointSigner.js';
import { createLogProofs, readTreeHead } from '../history/logProofs.js';
import { largestSignedTree } from './largestSignedTree.js';
import { createReceipts } from '../history/logReceipts.js';
import { type NoteSigner, verifierKeyString } from '../domain/signedNote.js';
import { loadLogSigner } from './logSigningKey.js';
import { startWitnessing } from './witnessing.js';
import { startWebhooks } from './webhooks.js';
import { dashboardErasure } from './dashboardErasure.js';
import { clearProcessMemos } from '../platform/processMemos.js';
import { createHttpServer, type HttpApp, type LiveCaps, type LiveSlots } from './httpServer.js';

export interface AppDeps {
  config: Config;
  engine: Engine;
  writeTokenKey: Buffer;
  /** Where log lines go (stdout by default); tests pass a stream to read them. */
  logStream?: { write(line: string): void };
  /** Login and sign-up attempts allowed per client address (tests lower them). */
  dashboardRateLimits?: ClubDashboardDeps['rateLimits'];
  /** Where rendered bodies are kept (default: a cache of PAGE_CACHE_BYTES); tests pass one to weigh it. */
  renderedCache?: RenderedCache;
  /** Metrics and traces (METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT); none by default. */
  observability?: Observability;
  /** The checkpoint signing key (default: LOG_SIGNING_KEY, or the key file in DATA_DIR). */
  logSigner?: NoteSigner;
}

/**
 * How often the public view's checkpoint is read for erasures other processes commit
 * (src/http/erasureSweep.ts): 4 × this when this process runs the projection.
 */
const ERASURES_POLL_MS = 1000;

/** Builds the application from its dependencies; main.ts listens, tests inject. */
export async function buildApp({
  config,
  engine,
  writeTokenKey,
  logStream,
  dashboardRateLimits,
  renderedCache = createRenderedCache(config.pageCacheBytes),
  observability = unobserved,
  logSigner = loadLogSigner(config),
}: AppDeps) {
  let shuttingDown = false;
  const { metrics } = observability;
  const liveCaps = { maxStreams: config.maxLiveStreams, maxStreamsPerAddress: config.maxLiveStreamsPerAddress };
  const liveSlots = createLiveStreamSlots(liveCaps);
  const { app, bodies } = await createHttpServer({ config, engine, logStream, observability, liveCaps, liveSlots });
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  const matchUrl = (id: string) => `${config.publicBaseUrl}/match/${encodeURIComponent(id)}`;
  const { clubs, matches, currentPublicView, privacy } = createWriteSide(app, config, engine, writeTokenKey, observability);
  const { checkpoints, proofs, witnessing, receipts } = startLogServices(app, config, engine, logSigner);
  // Pages, embeds, API answers and QR codes share one byte budget.
  // An erased match's payloads leave this process's memory, whichever process erased it (src/http/erasureSweep.ts).
  const forgetErased = createErasureSweep([renderedCache.forgetMatch, bodies.forgetBodies, privacy.forgetMatch, clearProcessMemos]);
  sweepErasures(app, engine, forgetErased);
  // Uploads and erasures share one write budget per address and one wrong-token budget per match and address.
  const tokenFailures = config.tokenFailureLimit === null ? null : createTokenFailureThrottle(config.tokenFailureLimit);
  await app.register(async (writes) => {
    await registerWriteRateLimit(writes, config.writeRateLimit);
    await writes.register(matchApi, {
      cache: renderedCache,
      matches,
      currentPublicView,
      eventStore: engine.eventStore,
      matchUrl,
      tokenFailures,
      receipts,
      readModel: engine.readModel,
      privacy,
    });
    await writes.register(eraseApi, { matches, receipts, forgetErased, readModel: engine.readModel, tokenFailures, erasureLedger: config.erasureLedger });
  });
  await app.register(logApi, {
    readModel: engine.readModel,
    proofs,
    eventStore: engine.eventStore,
    checkpoints,
    verifierKey: verifierKeyString(logSigner),
    witnessed: witnessing,
    privacy,
  });
  await app.register(logTilesApi, { readModel: engine.readModel });
  await app.register(historyApi, { readModel: engine.readModel, matchUrl, privacy });
  await app.register(matchPage, {
    readModel: engine.readModel,
    currentPublicView,
    eventStore: engine.eventStore,
    matchUrl,
    // PUBLIC_BASE_URL unset (its localhost default): pages hand out the address they were opened by (docs/decisions.md, Viewers).
    ...(config.publicBaseUrl === `http://localhost:${config.port}`
      ? { requestBase: (request: { headers: { host?: string }; protocol: string }) => hostBase(request.headers.host, request.protocol) }
      : {}),
    compress: true,
    cache: renderedCache,
    privacy,
  });
  // A club's public pages (issue 61, docs/public-pages.md): off until the club switches them on.
  const publicPages = { loadClub: clubs.loadClub, readModel: engine.readModel, cache: renderedCache, compress: true };
  await app.register(clubPage, publicPages);
  await app.register(teamPage, publicPages);
  await app.register(teamFeeds, { ...publicPages, publicBaseUrl: config.publicBaseUrl });
  await app.register(assets, { compress: true });
  await registerLiveUpdates(app, engine, metrics, liveCaps, liveSlots);
  await app.register(health, {
    engine,
    isShuttingDown: () => shuttingDown,
    maxLag: maxReadyLag(engine.eventStore.positionUnit),
    projectionsInProcess: config.runProjections,
    stallMs: config.projectionStallMs,
    logTreeBehind: async () => checkpoints.behind(await readTreeHead(engine.readModel)),
  });
  if (!config.runProjections) {
    app.log.warn(
      { readModel: redactUrl(config.readModelUrl) },
      'this API runs no projections (RUN_PROJECTIONS): start projection workers (matchlog projections), ' +
        'or writes wait READ_YOUR_WRITES_TIMEOUT_MS and never show; /readyz reports it',
    );
  }
  // Webhooks to the clubs' systems (src/webhooks/): the dashboard edits the endpoints; the queue and sender run where the projections do.
  const webhooks = await startWebhooks(config, engine.eventStore, writeTokenKey, app.log);
  app.addHook('onClose', () => webhooks.close());
  await app.register(clubDashboard, {
    prefix: '/dashboard',
    webhooks: webhooks.store,
    webhookLimits: config.webhooks,
    erasure: dashboardErasure({ matches, erasureLedger: config.erasureLedger, forgetErased, readModel: engine.readModel, log: app.log }),
    clubs,
    readModel: engine.readModel,
    eventStore: engine.eventStore,
    matchUrl,
    publicBaseUrl: config.publicBaseUrl,
    globalEnforcement: config.clubSyncEnforcement,
    sessionKey: sessionKey(config.sessionSecret, writeTokenKey),
    ...(dashboardRateLimits ? { rateLimits: dashboardRateLimits } : {}),
  });
  // The home page for people who type the bare address; /docs stays the developers' API console.
  await app.register(homePage);
  if (metrics) watchEverything(app, metrics, { config, engine, renderedCache });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** The transparency log's services (docs/auditing.md): the checkpoint signer, proofs, witnesses and write receipts. */
function startLogServices(app: HttpApp, config: Config, engine: Engine, logSigner: NoteSigner) {
  const checkpoints = createCheckpointSigner(logSigner, largestSignedTree(config.dataDir));
  engine.commits?.(({ projection, changes }) => {
    if (projection === transparencyLogProjection.name && changes === null) checkpoints.treeReplaced();
  });
  const proofs = createLogProofs(engine.readModel, engine.commits);
  const witnessing = startWitnessing({ config, checkpoints, proofs, readModel: engine.readModel, commits: engine.commits, log: app.log });
  if (witnessing !== null) app.addHook('onClose', () => witnessing.close());
  const receipts = createReceipts({
    proofs,
    eventStore: engine.eventStore,
    checkpoints,
    proofUrl: (index) => `${config.publicBaseUrl}/api/log/entries/${index}/proof`,
    ...(witnessing === null ? {} : { cosignedWith: witnessing.cosignedWith }),
  });
  return { checkpoints, proofs, witnessing, receipts };
}

/** Sweeps erased matches out of this process's memory, whichever process erased them (src/http/erasureSweep.ts). */
function sweepErasures(app: HttpApp, engine: Engine, forgetErased: (matchId: string) => void) {
  const stopSweeping = [
    engine.commits === null ? () => {} : sweepCommittedErasures(engine.commits, forgetErased),
    sweepErasuresElsewhere(
      checkpointSignal({
        checkpoint: () => engine.readModel.getCheckpoint(PUBLIC_VIEW),
        localCommits: engine.publicViewCommits,
        intervalMs: ERASURES_POLL_MS,
        onError: (error) => app.log.warn({ err: error }, 'erasures: reading the public view checkpoint failed'),
      }),
      (limit) => newestErasures(engine.readModel, limit),
      forgetErased,
    ),
  ];
  app.addHook('onClose', async () => {
    for (const stop of stopSweeping) stop();
  });
}

/** Live updates (GET /match/:id/live): one feed of the public view's moves for every open stream. */
async function registerLiveUpdates(app: HttpApp, engine: Engine, metrics: Observability['metrics'], liveCaps: LiveCaps, liveSlots: LiveSlots) {
  const matchFeed = createMatchFeed({
    signal: checkpointSignal({
      // The stored checkpoint: it moves only by commits, which this process hears when they are its own.
      checkpoint: () => engine.readModel.getCheckpoint(PUBLIC_VIEW),
      localCommits: engine.publicViewCommits,
      onError: (error) => app.log.warn({ err: error }, 'live updates: reading the public view checkpoint failed'),
    }),
    readRevisions: async (ids) => {
      const docs = await engine.readModel.getMany(PUBLIC_VIEW, ids);
      return new Map([...docs].map(([id, doc]) => [id, typeof doc.revision === 'number' ? doc.revision : -1]));
    },
    onError: (error) => app.log.warn({ err: error }, 'live updates: reading watched matches failed'),
  });
  const feed = metrics ? observeFeed(matchFeed, metrics) : matchFeed;
  app.addHook('onClose', async () => feed.close());
  await app.register(liveUpdates, {
    feed,
    readModel: engine.readModel,
    caps: liveCaps,
    slots: liveSlots,
  });
}

/** Metrics of the caches, projections, data folder, service and readiness, and their route. */
function watchEverything(
  app: HttpApp,
  metrics: NonNullable<Observability['metrics']>,
  { config, engine, renderedCache }: { config: Config; engine: Engine; renderedCache: RenderedCache },
) {
  watchCache(metrics, renderedCache);
  watchProjections(metrics, engine);
  watchDataDir(metrics, config.dataDir);
  watchService(metrics, buildFacts(config), engine.readModel);
  if (config.metricsTokenDigest !== null) registerMetricsRoute(app, metrics.registry, config.metricsTokenDigest);
  watchReadiness(metrics, async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
}

/** The commands (clubs, matches) and what reads go through (the current public view, the players' privacy). */
function createWriteSide(app: HttpApp, config: Config, engine: Engine, writeTokenKey: Buffer, observability: Observability) {
  const clubs = createClubCommands({
    eventStore: engine.eventStore,
    waitForReaders: (position) => engine.waitForReaders(position, config.readYourWritesTimeoutMs, ['MatchSideSettled', 'MatchExcluded', 'MatchIncluded']),
  });
  const matches = observeUploads(
    createMatchCommands({
      eventStore: engine.eventStore,
      hashWriteToken: createWriteTokenHasher(writeTokenKey),
      waitForReaders: (position, eventTypes) => engine.waitForReaders(position, config.readYourWritesTimeoutMs, eventTypes),
      onReadersLagging: (position) => app.log.warn({ position }, 'write stored, but the public view did not show it in time'),
      checkClubSync: (target, matchId, appKey, payload) => clubs.checkClubSync(target, matchId, appKey, config.clubSyncEnforcement, payload),
      decodedPayloads: engine.decodedPayloads,
    }),
    observability,
  );

  const currentPublicView = createCurrentPublicView(engine.readModel, engine.publicViewCheckpoint);
  // What anonymous readers see of a private team's players (issue 61, docs/public-pages.md).
  const privacy = createMatchPrivacy({
    loadClub: clubs.loadClub,
    eventStore: engine.eventStore,
    readModel: engine.readModel,
    hashWriteToken: createWriteTokenHasher(writeTokenKey),
  });
  return { clubs, matches, currentPublicView, privacy };
}
