import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { pino } from 'pino';
import { AccessLogOnly, registerAccessLogNotes } from '../http/accessLog.js';
import { registerJsonBody } from '../http/api/jsonBody.js';
import { registerOpenApi } from '../http/api/openapi.js';
import { registerValidation } from '../http/api/validation.js';
import { registerBusyConnectionLimit } from '../http/busyConnections.js';
import { registerBytesInFlight } from '../http/bytesInFlight.js';
import { trustedProxies } from '../http/clientAddress.js';
import { registerConnectionLimits } from '../http/connections.js';
import { dashboardErrorPage } from '../http/dashboard/dashboardRoutes.js';
import { registerEarlyReplies } from '../http/earlyReplies.js';
import { type ErrorPages, frameworkErrorHandler, registerErrorHandling } from '../http/errorHandling.js';
import { earlyStreamRefusal, type createLiveStreamSlots } from '../http/public/liveStreamSlots.js';
import { renderMatchErrorPage } from '../http/public/views/matchErrorPage.js';
import { registerHeaders, setHeadersBeforeRouting } from '../http/securityHeaders.js';
import { registerShedding } from '../http/shedding.js';
import { registerHttpMetrics } from '../observability/httpMetrics.js';
import { prettyLogStream } from '../observability/logFormat.js';
import type { Observability } from '../observability/observability.js';
import type { Config } from './config.js';
import type { Engine } from './engine.js';

/** Headers whose values are secrets: never written to a log. */
const REDACTED_PATHS = [
  'req.headers["x-write-token"]',
  'req.headers["x-app-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

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

export type LiveCaps = { maxStreams: number; maxStreamsPerAddress: number };
export type LiveSlots = ReturnType<typeof createLiveStreamSlots>;

interface HttpServerDeps {
  config: Config;
  engine: Pick<Engine, 'helperThread'>;
  logStream: { write(line: string): void } | undefined;
  observability: Observability;
  liveCaps: LiveCaps;
  liveSlots: LiveSlots;
}

/**
 * The Fastify instance with what every route shares (./app.ts adds the routes): logging, the
 * server's timeouts and early refusals, traces and metrics, validation, errors, limits on
 * bodies and connections, shedding, headers, JSON bodies, compression and the OpenAPI document.
 */
export async function createHttpServer({ config, engine, logStream, observability, liveCaps, liveSlots }: HttpServerDeps) {
  const prettyLines = logStream ? null : await prettyLogStream(config.logFormat);
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
  if (observability.tracing) await observability.tracing.register(app);
  if (observability.metrics) registerHttpMetrics(app, observability.metrics);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
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
  return { app, bodies };
}

/** The application as ./app.ts builds it on: the server with its plumbing, before the routes. */
export type HttpApp = Awaited<ReturnType<typeof createHttpServer>>['app'];
