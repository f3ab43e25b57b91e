import t from 'tap';
import { prettyMessage } from '../../src/observability/logFormat.js';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

t.test('LOG_FORMAT=pretty writes one readable line per request (GET /match/x 404 13 ms); JSON stays the default', async (t) => {
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), LOG_FORMAT: 'pretty' });
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  const listening = server.output.find((line) => line.includes('Server listening at'));
  t.ok(listening, 'the start is logged');
  t.notOk(listening?.trimStart().startsWith('{'), 'not a JSON line');
  t.match(listening, /\bINFO\b.*Server listening at http:\/\/127\.0\.0\.1:\d+/);
  const before = server.output.length;
  t.equal((await fetch(`${server.url}/match/no-such-match`)).status, 404);
  const deadline = Date.now() + 30_000;
  const access = () => server.output.slice(before).findIndex((line) => line.includes('/match/no-such-match'));
  while (access() < 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const lines = server.output.slice(before);
  const at = access();
  t.comment(lines[at]);
  t.match(lines[at], /\bINFO\b.*: GET \/match\/no-such-match 404 \d+ ms( \{.*\})?$/, 'method, URL, status and time on one line');
  // pino-pretty writes a record in one write: fields spread over more lines would follow it at once, indented.
  const next = lines[at + 1];
  t.ok(next === undefined || !/^\s/.test(next), `no continuation lines: the request, reply and fields are not spread over a dozen (${next})`);
  t.equal(loadConfig({}).logFormat, 'json');
});

t.test('a pretty access line reads method, URL, status and time; other lines keep their message', async (t) => {
  const access = { req: { method: 'PUT', url: '/api/matches/m1' }, res: { statusCode: 403 }, responseTime: 12.6, msg: 'request completed' };
  t.equal(prettyMessage(access, 'msg'), 'PUT /api/matches/m1 403 13 ms');
  t.equal(prettyMessage({ ...access, msg: 'request errored' }, 'msg'), 'PUT /api/matches/m1 403 13 ms: request errored');
  t.equal(prettyMessage({ msg: 'projection running from its stored checkpoint' }, 'msg'), 'projection running from its stored checkpoint');
});

t.test('metrics and log settings are checked at start', async (t) => {
  t.equal(loadConfig({}).metricsPort, null, 'no metrics listener unless METRICS_PORT is set');
  t.same([loadConfig({ METRICS_PORT: '9464' }).metricsPort, loadConfig({ METRICS_PORT: '9464' }).metricsHost], [9464, '127.0.0.1']);
  t.throws(
    () => loadConfig({ PORT: '3000', METRICS_PORT: '3000' }),
    new ConfigError('METRICS_PORT', 'must differ from PORT (3000): to serve /metrics on the public port, unset METRICS_PORT and set METRICS_TOKEN'),
  );
  t.throws(() => loadConfig({ METRICS_PORT: 'x' }), ConfigError);
  t.throws(() => loadConfig({ LOG_FORMAT: 'yaml' }), new ConfigError('LOG_FORMAT', 'must be one of json, pretty, got "yaml"'));
});
