import t from 'tap';
import { parsePrometheusText } from '../helpers/prometheusText.js';
import { type ServerProcess, startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { startWorkerProcess } from '../helpers/workerProcess.js';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';

const TOKEN = 'metrics-7f3c9a1e5b2d4c8f0a6e9b3d1c5f7a2e';

const stop = async (server: ServerProcess) => {
  server.child.kill('SIGTERM');
  await server.exited;
};

t.test('with METRICS_TOKEN, GET /metrics answers on the public port to its bearer only: 401 otherwise, the token never logged', async (t) => {
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), METRICS_TOKEN: TOKEN, LOG_LEVEL: 'debug' });
  t.teardown(() => stop(server));
  const metrics = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

  for (const [what, authorization] of [
    ['no Authorization', undefined],
    ['a wrong token', 'Bearer metrics-0000000000000000000000000000000000'],
    ['the token one character short', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token as Basic', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`],
  ] as const) {
    const refused = await metrics(authorization);
    t.equal(refused.status, 401, `${what}: 401`);
    t.equal(refused.headers.get('www-authenticate'), 'Bearer realm="matchlog metrics"');
    const body = (await refused.json()) as { statusCode: number; message: string };
    t.same(body, { statusCode: 401, error: 'Unauthorized', message: 'GET /metrics on this port needs the header Authorization: Bearer <METRICS_TOKEN>' });
  }

  const answered = await metrics(`Bearer ${TOKEN}`);
  t.equal(answered.status, 200);
  t.match(answered.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  t.equal(answered.headers.get('cache-control'), 'no-store');
  const families = parsePrometheusText(await answered.text());
  t.ok(families.has('matchlog_build_info') && families.has('matchlog_http_request_duration_seconds'), 'the same metrics as on METRICS_PORT');
  t.equal((await metrics(`bearer  ${TOKEN}`)).status, 200, 'the scheme in any case, as RFC 7235 has it');

  const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  t.notOk('/metrics' in openapi.paths, 'not part of the API document');
  t.notOk(
    server.output.some((line) => line.includes(TOKEN) || line.includes(TOKEN.slice(8, 24))),
    'the token is in no log line, at debug level',
  );
  t.notOk(
    server.output.some((line) => line.includes('metrics listening')),
    'no second listener: METRICS_PORT is unset',
  );
});

t.test('the projection worker takes METRICS_TOKEN too', async (t) => {
  const worker = await startWorkerProcess({ DATA_DIR: tempDataDir(t), METRICS_TOKEN: TOKEN });
  t.teardown(() => stop(worker));
  t.equal((await fetch(`${worker.url}/metrics`)).status, 401);
  const answered = await fetch(`${worker.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(answered.status, 200);
  t.ok(parsePrometheusText(await answered.text()).has('matchlog_projection_lag_events'));
});

t.test('METRICS_TOKEN is checked at start and never repeated in the message', async (t) => {
  t.equal(loadConfig({}).metricsTokenDigest, null, 'unset: no /metrics on the public port');
  t.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsTokenDigest?.length, 32, 'kept as its SHA-256 only');
  t.notOk(JSON.stringify(loadConfig({ METRICS_TOKEN: TOKEN })).includes(TOKEN), 'the configuration holds no copy of it');
  t.throws(
    () => loadConfig({ METRICS_TOKEN: 'short-secret' }),
    new ConfigError('METRICS_TOKEN', 'must be 32 to 1024 visible ASCII characters (0x21-0x7E), e.g. openssl rand -hex 32 (got 12 characters)'),
  );
  t.throws(() => loadConfig({ METRICS_TOKEN: `${TOKEN} with spaces` }), ConfigError);
});
