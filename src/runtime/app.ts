import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { constants as zlibConstants } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyCompress from '@fastify/compress';
import Fastify from 'fastify';
import { pino } from 'pino';
import { createClubCommands } from '../commands/clubCommands.js';
import { createMatchCommands } from '../commands/matchCommands.js';
import type { Config } from './config.js';
import { createWriteTokenHasher } from '../domain/writeToken.js';
import type { Engine } from './engine.js';
import { clubDashboard, type ClubDashboardDeps, dashboardErrorPage } from '../http/dashboard/dashboardRoutes.js';
import { sessionKey } from '../http/dashboard/session.js';
import { type ErrorPages, frameworkErrorHandler, registerErrorHandling } from '../http/errorHandling.js';
import { renderMatchErrorPage } from '../http/public/views/matchErrorPage.js';
import { health, maxReadyLag } from '../http/health.js';
import { historyApi } from '../http/api/historyApi.js';
import { createMatchPrivacy } from '../http/matchPrivacy.js';
import { clubPage } from '../http/public/clubPageRoutes.js';
import { teamPage } from '../http/public/teamPageRoutes.js';
import { teamFeeds } from '../http/public/teamFeedRoutes.js';
import { registerJsonBody } from '../http/api/jsonBody.js';
import { matchApi } from '../http/api/matchApi.js';
import { assets } from '../http/public/assets.js';
import { hostBase } from '../http/requestBase.js';
import { homePage } from '../http/public/homeRoutes.js';
import { liveUpdates } from '../http/public/liveUpdates.js';
import { createLiveStreamSlots, earlyStreamRefusal } from '../http/public/liveStreamSlots.js';
import { matchPage } from '../http/public/matchPageRoutes.js';
import { createCurrentPublicView } from '../http/publicViews.js';
import { createRenderedCache, type RenderedCache } from '../http/renderedPages.js';
import { checkpointSignal } from '../live/changeSignal.js';
import { createMatchFeed } from '../live/matchFeed.js';
import { newestErasures, PUBLIC_VIEW } from '../../projections/publicView.js';
import { transparencyLogProjection } from '../../projections/transparencyLog.js';
import { registerOpenApi } from '../http/api/openapi.js';
import { registerValidation } from '../http/api/validation.js';
import { redactUrl } from '../platform/redactUrl.js';
import { AccessLogOnly, registerAccessLogNotes } from '../http/accessLog.js';
import { registerBytesInFlight } from '../http/bytesInFlight.js';
import { registerConnectionLimits } from '../http/connections.js';
import { registerBusyConnectionLimit } from '../http/busyConnections.js';
import { createErasureSweep, sweepCommittedErasures, sweepErasuresElsewhere } from '../http/erasureSweep.js';
import { trustedProxies } from '../http/clientAddress.js';
import { registerEarlyReplies } from '../http/earlyReplies.js';
import { registerHeaders, setHeadersBeforeRouting } from '../http/securityHeaders.js';
import { registerShedding } from '../http/shedding.js';
import { createTokenFailureThrottle } from '../http/api/tokenFailures.js';
import { registerWriteRateLimit } from '../http/api/writeRateLimit.js';
import { watchCache, watchReadiness } from '../observability/cacheMetrics.js';
import { observeFeed, registerHttpMetrics } from '../observability/httpMetrics.js';
import { prettyLogStream } from '../observability/logFormat.js';
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

/** Headers whose values are secrets: never written to a log. */
const REDACTED_PATHS = [
  'req.headers["x-write-token"]',
  'req.headers["x-app-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/**
 * How often the public view's checkpoint is read for erasures other processes commit
 * (src/http/erasureSweep.ts): 4 × this when this process runs the projection.
 */
const ERASURES_POLL_MS = 1000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's id: the client's X-Request-Id when it is a plain one, else a new one. */
function requestId(req: IncomingMessage) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** What a browser gets for a failed request under the pages' prefixes (API clients get JSON). */
const ERROR_PAGES: ErrorPages[] = [
  { prefix: '/match', render: renderMatchErrorPage },
  { prefix: '/dashboard', render: dashboardErrorPage },
];

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
  const { metrics, tracing } = observability;
  const prettyLines = logStream ? null : await prettyLogStream(config.logFormat);
  const liveCaps = { maxStreams: config.maxLiveStreams, maxStreamsPerAddress: config.maxLiveStreamsPerAddress };
  const liveSlots = createLiveStreamSlots(liveCaps);
  const refuseStreamEarly = earlyStreamRefusal({
    slots: liveSlots,
    caps: liveCaps,
    peerIsClient: config.trustProxy === false,
    setCommonHeaders: (req, res) => {
      setHeadersBeforeRouting(res);
      res.setHeader('x-request-id', requestId(req));
    },
    warn: (fields, message) => app.log.warn(fields, message),
  });
  const app = Fastify({
    // Lines go to stdout asynchronously, so a request never waits on a write to the terminal or a
    // pipe, and in writes of 4 KB (about a dozen lines) or at least every second, not one system
    // call per line; what is buffered is written on exit (a kill -9 may lose up to a second of lines).
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      stream: logStream ?? prettyLines ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 }),
    },
    bodyLimit: config.maxBodyBytes,
    genReqId: requestId,
    return503OnClosing: true,
    logController: new AccessLogOnly(),
    trustProxy: trustedProxies(config.trustProxy),
    // A body that stops coming is cut off: Node checks these every second rather than every 30 s.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
          keepAliveTimeout: config.keepAliveTimeoutMs,
          connectionsCheckingInterval: 1000,
        },
        (req, res) => {
          if (!refuseStreamEarly(req, res)) handler(req, res);
        },
      ),
    // Ids are up to 128 characters (src/domain/matchId.ts); room for percent-encoding, the schema checks the rest.
    routerOptions: { maxParamLength: 512 },
    frameworkErrors: frameworkErrorHandler(ERROR_PAGES),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Before any route, so that every route gets its request span.
  if (tracing) await tracing.register(app);
  if (metrics) registerHttpMetrics(app, metrics);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  registerAccessLogNotes(app);
  registerValidation(app);
  registerErrorHandling(app, ERROR_PAGES);
  registerEarlyReplies(app);
  registerBytesInFlight(app, config);
  registerConnectionLimits(app, config);
  registerBusyConnectionLimit(app, config.maxConnectionsPerAddress);
  await registerShedding(app, config.maxEventLoopDelayMs);
  await registerHeaders(app);
  const bodies = registerJsonBody(
    app,
    config.maxBodyBytes,
    { maxDepth: config.maxJsonDepth, maxValues: config.maxJsonValues },
    engine.helperThread,
    config.liveParseBytes,
  );
  // Compresses what routes send as it is; the match pages send pre-compressed bytes instead.
  // Answers only: request bodies are never inflated (a Content-Encoding gets 415, ../http/api/jsonBody.ts).
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await registerOpenApi(app, config.publicBaseUrl);

  const matchUrl = (id: string) => `${config.publicBaseUrl}/match/${encodeURIComponent(id)}`;
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
  // Pages, embeds, API answers and QR codes share one byte budget.
  // An erased match's payloads leave this process's memory, whichever process erased it (src/http/erasureSweep.ts).
  const forgetErased = createErasureSweep([renderedCache.forgetMatch, bodies.forgetBodies, privacy.forgetMatch, clearProcessMemos]);
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
  if (metrics) {
    watchCache(metrics, renderedCache);
    watchProjections(metrics, engine);
    watchDataDir(metrics, config.dataDir);
    watchService(metrics, buildFacts(config), engine.readModel);
    if (config.metricsTokenDigest !== null) registerMetricsRoute(app, metrics.registry, config.metricsTokenDigest);
    watchReadiness(metrics, async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
