import type { RateLimit } from '../http/api/tokenFailures.js';
import { DEFAULT_DELTA_OPTIONS, type DeltaOptions } from '../eventstore/storedVersions.js';
import { resolve } from 'node:path';
import { redactUrl } from '../platform/redactUrl.js';
import { connectionBudget, openFilesLimit } from '../platform/openFilesLimit.js';
import { ConfigError } from './configError.js';
import { METRICS_TOKEN_RULE, metricsTokenDigest as digestOfToken } from '../observability/metricsToken.js';
import { transparencyLogSettings } from './logSettings.js';
import { type WitnessSetting, witnessSettings } from './witnessSettings.js';
import { type WebhookSettings, webhookSettings } from './webhookSettings.js';
import { isOneOf } from '../platform/oneOf.js';

type ClubSyncEnforcement = 'log' | 'enforce';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of public page URLs, without a trailing slash. */
  publicBaseUrl: string;
  eventStoreUrl: string;
  readModelUrl: string;
  clubSyncEnforcement: ClubSyncEnforcement;
  maxBodyBytes: number;
  /** The EventStoreDB server's MaxAppendSize (bytes per append); only used with esdb URLs. */
  esdbMaxAppendBytes: number;
  /** Base64 key for hashing write tokens; when absent, one is kept in DATA_DIR. */
  writeTokenKey: string | null;
  /** The erasure ledger (ERASURE_LEDGER, default DATA_DIR/erasures.ledger): one line per erasure, never in a backup. */
  erasureLedger: string;
  /** The origin a log signing key made now is named after (src/runtime/logSettings.ts); the log's origin is its key's name. */
  logOrigin: string;
  /** Whether LOG_ORIGIN was given: a key named otherwise is then refused. */
  logOriginSet: boolean;
  /** The checkpoint signing key, a note signer key string (LOG_SIGNING_KEY); when absent, one is kept in DATA_DIR. */
  logSigningKey: string | null;
  /** Witnesses each checkpoint is submitted to (LOG_WITNESSES); none: checkpoints are signed by the log alone. */
  logWitnesses: WitnessSetting[];
  /** How many of them must cosign a checkpoint before it is answered (LOG_WITNESS_QUORUM, default all). */
  logWitnessQuorum: number;
  /** Webhooks to the clubs' systems (WEBHOOK_*: src/runtime/webhookSettings.ts). */
  webhooks: WebhookSettings;
  /** Base64 key signing dashboard session cookies; when absent, derived from the write-token key. */
  sessionSecret: string | null;
  logLevel: string;
  /** Longest a write waits for the public view to show it (read-your-writes). */
  readYourWritesTimeoutMs: number;
  /** Run projections inside the API process: RUN_PROJECTIONS=auto (default) does so on SQLite read models. */
  runProjections: boolean;
  /** Deepest nesting of objects and arrays an upload may have. */
  maxJsonDepth: number;
  /** Most keys plus array items an upload may have. */
  maxJsonValues: number;
  /** Uploads (and versions to compare) of at least this many bytes are parsed on a helper thread; 0: never. */
  helperThreadBytes: number;
  /** Bytes of live matches' last uploads kept to parse the next against (LIVE_PARSE_BYTES; 0: off). */
  liveParseBytes: number;
  /** A request (headers and body) must arrive within this; a body that stops coming is cut off. */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections the kernel queues for accepting (listen's backlog; Linux caps it at net.core.somaxconn). */
  listenBacklog: number;
  /** Request bodies held at once, in bytes; beyond it new uploads get 503 with Retry-After. */
  maxBytesInFlight: number;
  /** Shed load (503) when the event loop lags more than this; 0 disables. */
  maxEventLoopDelayMs: number;
  /** Writes per client address: WRITE_RATE_LIMIT, e.g. 300/minute, or null when off. */
  writeRateLimit: RateLimit | null;
  /** 403s per match and client address before 429: TOKEN_FAILURE_LIMIT, or null when off. */
  tokenFailureLimit: RateLimit | null;
  /** Fastify's trustProxy: false, a number of proxy hops in front of us, or the proxies' addresses (TRUST_PROXY). */
  trustProxy: boolean | number | string[];
  /** After SIGTERM, in-flight requests get this long before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Events waiting and no checkpoint moving for this long: /readyz says no projection is making progress. */
  projectionStallMs: number;
  /** Bytes of rendered pages, embeds, API answers and QR codes kept (compressed copies included); 0 keeps none. */
  pageCacheBytes: number;
  /** Event store: a keyframe at least every this many versions of a stream, deltas between (0: versions stored whole, as before). */
  deltaKeyframeInterval: number;
  /** Event store: bytes of whole versions kept to make and read deltas without going back to a keyframe. */
  deltaCacheBytes: number;
  /** The process's soft open-files limit (`ulimit -n`) when known: the connection caps' defaults stay below it. */
  openFilesLimit: number | null;
  /** Client connections held at once (server.maxConnections); beyond it new ones are closed at once, and near it idle ones are. */
  maxConnections: number;
  /** Connections one client address may keep busy with a request or a live stream (idle keep-alive is free); beyond it 503 with Retry-After. */
  maxConnectionsPerAddress: number;
  /** Live update streams (GET /match/:id/live) held at once; beyond it 503 with Retry-After. */
  maxLiveStreams: number;
  /** Live update streams one client address may hold; beyond it 429 with Retry-After. */
  maxLiveStreamsPerAddress: number;
  /** Where GET /metrics answers (METRICS_PORT; null: no metrics listener), never the public port. */
  metricsPort: number | null;
  metricsHost: string;
  /** SHA-256 of METRICS_TOKEN: GET /metrics on the public port with it as a bearer token (null: not there). */
  metricsTokenDigest: Buffer | null;
  /** LOG_FORMAT: JSON lines (default) or pretty lines for a terminal (pino-pretty). */
  logFormat: 'json' | 'pretty';
}

export { ConfigError };

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!isOneOf(allowed, raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

function url(env: Env, name: string, fallback: string, schemes: readonly string[]): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Database URLs may list several hosts (esdb://a:2113,b:2113), which WHATWG URLs reject;
  // their adapters parse them. Messages never repeat a password.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) throw new ConfigError(name, `must be a URL, got "${redactUrl(raw)}"`);
  if (!schemes.includes(scheme)) {
    throw new ConfigError(name, `must start with ${schemes.map((s) => `${s}:`).join(' or ')}`);
  }
  if (scheme === 'http' || scheme === 'https') {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(name, `must be a URL, got "${redactUrl(raw)}"`);
    }
  }
  return raw;
}

const WINDOWS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000 };

/** "N/second", "N/minute" or "N/hour"; "off" disables the limit. */
function rateLimit(env: Env, name: string, fallback: string): RateLimit | null {
  const raw = env[name] || fallback;
  if (raw === 'off') return null;
  const match = /^(\d+)\/(second|minute|hour)$/.exec(raw);
  const max = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(max) || max < 1) throw new ConfigError(name, `must be N/second, N/minute or N/hour (N at least 1) or off, got "${raw}"`);
  return { max, windowMs: WINDOWS[match[2]!]!, text: raw };
}

/**
 * TRUST_PROXY: unset or "off" trusts no proxy; a number N trusts N proxy hops in front of us
 * ("true" is 1): the client is the address the outermost of them saw, the N-th X-Forwarded-For
 * entry from the right, never one a client wrote further left; or a comma-separated list of
 * proxy addresses/CIDRs.
 */
function trustProxy(env: Env): boolean | number | string[] {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw === '' || raw === 'off' || raw === 'false') return false;
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 16) throw new ConfigError('TRUST_PROXY', `a number of proxy hops must be 1 to 16, got "${raw}"`);
    return hops;
  }
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (list.length === 0 || !list.every((part) => /^[0-9A-Fa-f.:]+(\/\d{1,3})?$/.test(part))) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be off, true (one proxy hop), a number of hops or a comma-separated list of proxy addresses/CIDRs, got "${raw}"`,
    );
  }
  return list;
}

/** Room an append needs beside the match payload: event envelope, metadata, sync outcome events. */
export const APPEND_OVERHEAD_BYTES = 16 * 1024;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * MAX_BODY_BYTES, kept within what one append can carry: EventStoreDB refuses appends above
 * its MaxAppendSize, so a larger body would be accepted over HTTP and then fail to store.
 */
function maxBodyBytes(env: Env, eventStoreUrl: string, esdbMaxAppendBytes: number): number {
  if (eventStoreUrl.startsWith('sqlite:')) return integer(env, 'MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1024, 64 * 1024 * 1024);
  const limit = esdbMaxAppendBytes - APPEND_OVERHEAD_BYTES;
  const value = integer(env, 'MAX_BODY_BYTES', Math.min(DEFAULT_MAX_BODY_BYTES, limit), 1024, 64 * 1024 * 1024);
  if (value > limit) {
    throw new ConfigError(
      'MAX_BODY_BYTES',
      `must be at most ${limit} with EventStoreDB (ESDB_MAX_APPEND_BYTES ${esdbMaxAppendBytes} minus ${APPEND_OVERHEAD_BYTES} for envelope and metadata), ` +
        `got "${env.MAX_BODY_BYTES ?? ''}"; raise the server's MaxAppendSize and ESDB_MAX_APPEND_BYTES together to accept larger matches`,
    );
  }
  return value;
}

/**
 * 48 MiB: about 250 live matches' pages, embeds and API answers (~150 KB each with their copies)
 * beside a server that holds ~200 MB resident under sustained uploads, for ~250 MB in all.
 */
const DEFAULT_PAGE_CACHE_BYTES = 48 * 1024 * 1024;

/** METRICS_PORT (unset: off), METRICS_HOST (loopback), METRICS_TOKEN and LOG_FORMAT: how an operator watches the process. */
function observability(env: Env, port: number): Pick<Config, 'metricsPort' | 'metricsHost' | 'metricsTokenDigest' | 'logFormat'> {
  const metricsPort = env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : integer(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port)
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${port}): to serve /metrics on the public port, unset METRICS_PORT and set METRICS_TOKEN`);
  const token = env.METRICS_TOKEN ?? '';
  const metricsTokenDigest = token === '' ? null : digestOfToken(token);
  // The message never repeats the value: it is a secret.
  if (token !== '' && metricsTokenDigest === null) throw new ConfigError('METRICS_TOKEN', `${METRICS_TOKEN_RULE} (got ${token.length} characters)`);
  return {
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsTokenDigest,
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
  };
}

export interface LoadConfigOptions {
  /** Processes that never hash write tokens (projection workers) need no WRITE_TOKEN_KEY. */
  hashesWriteTokens?: boolean;
  /** The soft open-files limit (tests); read from /proc/self/limits by default. */
  openFiles?: number | null;
}

/** Live pages open at once behind one address that the defaults serve: a tournament hall's crowd. */
const HALL_VIEWERS = 1500;
/** Requests in flight at once from one address beside its streams: page loads and uploads arriving together. */
const HALL_REQUESTS_IN_FLIGHT = 256;

/**
 * Connection caps whose defaults keep every stream and connection below the open-files limit
 * (with headroom for the stores); an explicit value wins, and the server warns when it does not fit.
 */
function connectionCaps(env: Env, limit: number | null) {
  const budget = limit === null ? 50_000 : connectionBudget(limit);
  const maxConnections = integer(env, 'MAX_CONNECTIONS', Math.min(50_000, budget), 1, 1_000_000);
  // A tenth of the connections stays free for page loads and uploads while streams are full.
  const maxLiveStreams = integer(env, 'MAX_LIVE_STREAMS', Math.max(1, Math.min(20_000, maxConnections - Math.ceil(maxConnections / 10))), 0, 1_000_000);
  // Sized for a tournament hall behind one NAT: 1,500 phones with a live page open (docs/limits.md);
  // at most half of all streams, so that under a low open-files limit one address never takes them all.
  const maxLiveStreamsPerAddress = integer(
    env,
    'MAX_LIVE_STREAMS_PER_ADDRESS',
    Math.min(HALL_VIEWERS, Math.max(1, Math.floor(maxLiveStreams / 2))),
    0,
    1_000_000,
  );
  // Its streams, and room for as many page loads and uploads in flight at once as a half-time rush brings.
  const maxConnectionsPerAddress = integer(
    env,
    'MAX_CONNECTIONS_PER_ADDRESS',
    Math.min(maxConnections, Math.max(64, maxLiveStreamsPerAddress + HALL_REQUESTS_IN_FLIGHT)),
    1,
    1_000_000,
  );
  return { openFilesLimit: limit, maxConnections, maxConnectionsPerAddress, maxLiveStreams, maxLiveStreamsPerAddress };
}

/** Reads and checks the environment; throws one ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env, { hashesWriteTokens = true, openFiles = openFilesLimit() }: LoadConfigOptions = {}): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.DATA_DIR || './data');
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http', 'https']).replace(/\/+$/, '');
  const writeTokenKey = env.WRITE_TOKEN_KEY || null;
  if (writeTokenKey !== null && Buffer.from(writeTokenKey, 'base64').length < 32) {
    throw new ConfigError('WRITE_TOKEN_KEY', 'must be base64 of at least 32 random bytes');
  }
  const sessionSecret = env.SESSION_SECRET || null;
  if (sessionSecret !== null && Buffer.from(sessionSecret, 'base64').length < 32) {
    throw new ConfigError('SESSION_SECRET', 'must be base64 of at least 32 random bytes');
  }
  const eventStoreUrl = url(env, 'EVENT_STORE_URL', `sqlite:${resolve(dataDir, 'events.sqlite')}`, ['sqlite', 'esdb', 'esdb+discover']);
  if (hashesWriteTokens && writeTokenKey === null && !eventStoreUrl.startsWith('sqlite:')) {
    // Several API processes share the log; they must hash tokens with the same key.
    throw new ConfigError('WRITE_TOKEN_KEY', 'is required when EVENT_STORE_URL is not sqlite (base64 of 32 random bytes)');
  }
  const { logOrigin, logOriginSet, logSigningKey } = transparencyLogSettings(env, publicBaseUrl);
  const readModelUrl = url(env, 'READ_MODEL_URL', `sqlite:${resolve(dataDir, 'readmodel.sqlite')}`, ['sqlite', 'mongodb', 'mongodb+srv']);
  const runProjections = oneOf(env, 'RUN_PROJECTIONS', ['auto', 'yes', 'no'] as const, 'auto');
  // EventStoreDB's default MaxAppendSize is 1 MiB; the server accepts at most 16 MiB.
  const esdbMaxAppendBytes = integer(env, 'ESDB_MAX_APPEND_BYTES', 1024 * 1024, 64 * 1024, 16 * 1024 * 1024);
  const maxBodyBytesValue = maxBodyBytes(env, eventStoreUrl, esdbMaxAppendBytes);
  const maxBytesInFlight = integer(env, 'MAX_BYTES_IN_FLIGHT', Math.max(64 * 1024 * 1024, maxBodyBytesValue), 1024, 16 * 1024 * 1024 * 1024);
  if (maxBytesInFlight < maxBodyBytesValue)
    throw new ConfigError('MAX_BYTES_IN_FLIGHT', `must be at least MAX_BODY_BYTES (${maxBodyBytesValue}), got "${maxBytesInFlight}"`);
  return {
    port,
    host,
    dataDir,
    publicBaseUrl,
    eventStoreUrl,
    readModelUrl,
    clubSyncEnforcement: oneOf(env, 'CLUB_SYNC_ENFORCEMENT', ['log', 'enforce'] as const, 'log'),
    maxBodyBytes: maxBodyBytesValue,
    esdbMaxAppendBytes,
    writeTokenKey,
    erasureLedger: resolve(env.ERASURE_LEDGER || resolve(dataDir, 'erasures.ledger')),
    logOrigin,
    logOriginSet,
    logSigningKey,
    ...witnessSettings(env),
    ...webhookSettings(env),
    sessionSecret,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 5000, 0, 60_000),
    runProjections: runProjections === 'yes' || (runProjections === 'auto' && readModelUrl.startsWith('sqlite:')),
    maxJsonDepth: integer(env, 'MAX_JSON_DEPTH', 64, 2, 1000),
    maxJsonValues: integer(env, 'MAX_JSON_VALUES', 300_000, 100, 10_000_000),
    helperThreadBytes: integer(env, 'HELPER_THREAD_BYTES', 256 * 1024, 0, 1024 * 1024 * 1024),
    liveParseBytes: integer(env, 'LIVE_PARSE_BYTES', 32 * 1024 * 1024, 0, 16 * 1024 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1000, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 3_600_000),
    listenBacklog: integer(env, 'LISTEN_BACKLOG', 4096, 1, 65_535),
    maxBytesInFlight,
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', 2000, 0, 600_000),
    writeRateLimit: rateLimit(env, 'WRITE_RATE_LIMIT', '300/minute'),
    tokenFailureLimit: rateLimit(env, 'TOKEN_FAILURE_LIMIT', '10/minute'),
    trustProxy: trustProxy(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    projectionStallMs: integer(env, 'PROJECTION_STALL_MS', 30_000, 100, 3_600_000),
    pageCacheBytes: integer(env, 'PAGE_CACHE_BYTES', DEFAULT_PAGE_CACHE_BYTES, 0, 16 * 1024 * 1024 * 1024),
    deltaKeyframeInterval: integer(env, 'DELTA_KEYFRAME_INTERVAL', DEFAULT_DELTA_OPTIONS.keyframeInterval, 0, 1000),
    deltaCacheBytes: integer(env, 'DELTA_CACHE_BYTES', DEFAULT_DELTA_OPTIONS.cacheBytes, 0, 16 * 1024 * 1024 * 1024),
    ...connectionCaps(env, openFiles),
    ...observability(env, port),
  };
}

/** The event store's delta settings from the configuration; the defaults where it has none. */
export function deltaOptions(config: Partial<Pick<Config, 'deltaKeyframeInterval' | 'deltaCacheBytes'>>): DeltaOptions {
  return {
    keyframeInterval: config.deltaKeyframeInterval ?? DEFAULT_DELTA_OPTIONS.keyframeInterval,
    cacheBytes: config.deltaCacheBytes ?? DEFAULT_DELTA_OPTIONS.cacheBytes,
  };
}
