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
    [{ MAX_JSON_DEPTH: '1' }, 'MAX_JSON_DEPTH', /integer from 2/],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, 'REQUEST_TIMEOUT_MS', /integer/],
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
