import t from 'tap';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

t.test('LOG_FORMAT=pretty writes readable lines; JSON stays the default', async (t) => {
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), LOG_FORMAT: 'pretty' });
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  const listening = server.output.find((line) => line.includes('Server listening at'));
  t.ok(listening, 'the start is logged');
  t.notOk(listening?.trimStart().startsWith('{'), 'not a JSON line');
  t.match(listening, /\bINFO\b.*Server listening at http:\/\/127\.0\.0\.1:\d+/);
  t.equal(loadConfig({}).logFormat, 'json');
});

t.test('metrics and log settings are checked at start', async (t) => {
  t.equal(loadConfig({}).metricsPort, null, 'no metrics listener unless METRICS_PORT is set');
  t.same([loadConfig({ METRICS_PORT: '9464' }).metricsPort, loadConfig({ METRICS_PORT: '9464' }).metricsHost], [9464, '127.0.0.1']);
  t.throws(
    () => loadConfig({ PORT: '3000', METRICS_PORT: '3000' }),
    new ConfigError('METRICS_PORT', 'must differ from PORT (3000): metrics are never served on the public port'),
  );
  t.throws(() => loadConfig({ METRICS_PORT: 'x' }), ConfigError);
  t.throws(() => loadConfig({ LOG_FORMAT: 'yaml' }), new ConfigError('LOG_FORMAT', 'must be one of json, pretty, got "yaml"'));
});
