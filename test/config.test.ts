import { resolve } from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig } from '../src/runtime/config.js';

t.test('defaults run the embedded engine from ./data', async (t) => {
  const config = loadConfig({});
  t.match(config, {
    port: 3000,
    host: '127.0.0.1',
    dataDir: resolve('data'),
    publicBaseUrl: 'http://localhost:3000',
    eventStoreUrl: `sqlite:${resolve('data/events.sqlite')}`,
    readModelUrl: `sqlite:${resolve('data/readmodel.sqlite')}`,
    clubSyncEnforcement: 'log',
    maxBodyBytes: 4 * 1024 * 1024,
    runProjections: true,
  });
  t.equal(loadConfig({ PUBLIC_BASE_URL: 'https://matches.example.org/' }).publicBaseUrl, 'https://matches.example.org', 'trailing slash dropped');
});

t.test('a bad variable fails with one line naming it', async (t) => {
  const bad: [Record<string, string>, string, RegExp][] = [
    [{ PORT: 'eighty' }, 'PORT', /integer/],
    [{ PORT: '70000' }, 'PORT', /0 to 65535/],
    [{ MAX_BODY_BYTES: '-1' }, 'MAX_BODY_BYTES', /integer/],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL', /URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL', /http: or https:/],
    [{ CLUB_SYNC_ENFORCEMENT: 'strict' }, 'CLUB_SYNC_ENFORCEMENT', /log, enforce/],
    [{ EVENT_STORE_URL: 'postgres://x' }, 'EVENT_STORE_URL', /sqlite:/],
    [{ READ_MODEL_URL: 'redis://x' }, 'READ_MODEL_URL', /mongodb:/],
    [{ WRITE_TOKEN_KEY: 'c2hvcnQ=' }, 'WRITE_TOKEN_KEY', /32 random bytes/],
    [{ EVENT_STORE_URL: 'esdb://localhost:2113' }, 'WRITE_TOKEN_KEY', /required/],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /one of/],
    [{ WRITE_RATE_LIMIT: 'lots' }, 'WRITE_RATE_LIMIT', /N\/second, N\/minute or N\/hour/],
    [{ TOKEN_FAILURE_LIMIT: '0/minute' }, 'TOKEN_FAILURE_LIMIT', /at least 1/],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY', /addresses\/CIDRs/],
    [{ MAX_BYTES_IN_FLIGHT: '2048' }, 'MAX_BYTES_IN_FLIGHT', /at least MAX_BODY_BYTES/],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS', /integer from 1/],
    [{ LISTEN_BACKLOG: '0' }, 'LISTEN_BACKLOG', /integer from 1 to 65535/],
    [{ MAX_LIVE_STREAMS: 'many' }, 'MAX_LIVE_STREAMS', /integer/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '0' }, 'MAX_CONNECTIONS_PER_ADDRESS', /integer from 1/],
    [{ MAX_LIVE_STREAMS_PER_ADDRESS: '-1' }, 'MAX_LIVE_STREAMS_PER_ADDRESS', /integer from 0/],
    [{ MAX_JSON_DEPTH: '1' }, 'MAX_JSON_DEPTH', /integer from 2/],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, 'REQUEST_TIMEOUT_MS', /integer/],
    [{ PAGE_CACHE_BYTES: '48MB' }, 'PAGE_CACHE_BYTES', /integer from 0/],
    [{ PAGE_CACHE_BYTES: '-1' }, 'PAGE_CACHE_BYTES', /integer from 0/],
    [{ DELTA_KEYFRAME_INTERVAL: '1001' }, 'DELTA_KEYFRAME_INTERVAL', /integer from 0 to 1000/],
    [{ DELTA_CACHE_BYTES: '32MiB' }, 'DELTA_CACHE_BYTES', /integer from 0/],
  ];
  for (const [env, variable, problem] of bad) {
    try {
      loadConfig(env);
      t.fail(`${variable} should be refused`);
    } catch (error) {
      t.ok(error instanceof ConfigError, variable);
      t.match((error as Error).message, new RegExp(`^invalid configuration: ${variable} `));
      t.match((error as Error).message, problem);
      t.notMatch((error as Error).message, /\n/, 'one line');
    }
  }
});

t.test('limits of issue 10: defaults and forms', async (t) => {
  const config = loadConfig({});
  t.match(config, {
    maxJsonDepth: 64,
    maxJsonValues: 300_000,
    requestTimeoutMs: 60_000,
    maxBytesInFlight: 64 * 1024 * 1024,
    writeRateLimit: { max: 300, windowMs: 60_000, text: '300/minute' },
    tokenFailureLimit: { max: 10, windowMs: 60_000 },
    trustProxy: false,
    shutdownTimeoutMs: 10_000,
  });
  t.equal(loadConfig({ WRITE_RATE_LIMIT: 'off' }).writeRateLimit, null);
  t.match(loadConfig({ WRITE_RATE_LIMIT: '5/second' }).writeRateLimit, { max: 5, windowMs: 1000 });
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1']);
  t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, 1, 'true is one hop, not every address X-Forwarded-For names');
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.throws(() => loadConfig({ TRUST_PROXY: '0' }), /TRUST_PROXY.*1 to 16/);
});

t.test('PAGE_CACHE_BYTES: 48 MiB unless set; 0 keeps nothing', async (t) => {
  t.equal(loadConfig({}).pageCacheBytes, 48 * 1024 * 1024);
  t.equal(loadConfig({ PAGE_CACHE_BYTES: '0' }).pageCacheBytes, 0);
  t.equal(loadConfig({ PAGE_CACHE_BYTES: '134217728' }).pageCacheBytes, 128 * 1024 * 1024);
});

t.test('connection caps of issues 33 and 57: defaults stay under the open-files limit and serve a hall behind one NAT, explicit values win', async (t) => {
  t.match(loadConfig({}, { openFiles: 20_000 }), {
    openFilesLimit: 20_000,
    maxConnections: 18_976,
    maxLiveStreams: 17_078,
    maxLiveStreamsPerAddress: 1500,
    maxConnectionsPerAddress: 1756,
  });
  t.match(loadConfig({}, { openFiles: 4096 }), { maxConnections: 3584, maxLiveStreams: 3225, maxLiveStreamsPerAddress: 1500, maxConnectionsPerAddress: 1756 });
  t.match(
    loadConfig({}, { openFiles: 1024 }),
    { maxConnections: 896, maxLiveStreams: 806, maxLiveStreamsPerAddress: 403, maxConnectionsPerAddress: 659 },
    'a low limit: every cap fits under it, and one address holds at most half the streams',
  );
  t.match(loadConfig({}, { openFiles: 1_048_576 }), { maxConnections: 50_000, maxLiveStreams: 20_000 }, 'a high limit: the fixed defaults');
  t.match(
    loadConfig({}, { openFiles: null }),
    { openFilesLimit: null, maxConnections: 50_000, maxLiveStreams: 20_000 },
    'an unknown limit: the fixed defaults',
  );
  t.match(
    loadConfig({ MAX_LIVE_STREAMS: '10' }, { openFiles: 4096 }),
    { maxLiveStreams: 10, maxLiveStreamsPerAddress: 5 },
    'the per-address default is at most half the total',
  );
  t.match(loadConfig({ MAX_CONNECTIONS: '100000' }, { openFiles: 1024 }), { maxConnections: 100_000 }, 'an explicit value wins (the server warns)');
  const { openFilesLimit } = await import('../src/platform/openFilesLimit.js');
  t.equal(typeof openFilesLimit(), 'number', 'read from /proc/self/limits on Linux');
  t.equal(openFilesLimit('/nonexistent/limits'), null);
});

t.test('DELTA_KEYFRAME_INTERVAL and DELTA_CACHE_BYTES: 32 versions and 32 MiB unless set; 0 stores versions whole', async (t) => {
  t.match(loadConfig({}), { deltaKeyframeInterval: 32, deltaCacheBytes: 32 * 1024 * 1024 });
  t.match(loadConfig({ DELTA_KEYFRAME_INTERVAL: '0', DELTA_CACHE_BYTES: '0' }), { deltaKeyframeInterval: 0, deltaCacheBytes: 0 });
});
