import t from 'tap';
import { publicAddressWarning } from '../../src/runtime/publicAddressCheck.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { until } from '../helpers/until.js';

t.test('a warning when listening beyond loopback with PUBLIC_BASE_URL unset or local', async (t) => {
  t.equal(publicAddressWarning({}, '127.0.0.1', 'http://localhost:3000'), null, 'loopback only: the default is right');
  t.match(
    publicAddressWarning({}, '0.0.0.0', 'http://localhost:3000'),
    /^listening on 0\.0\.0\.0 but PUBLIC_BASE_URL is not set, so it is http:\/\/localhost:3000: .*Set PUBLIC_BASE_URL/,
  );
  t.match(
    publicAddressWarning({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }, '::', 'http://127.0.0.1:3000'),
    /PUBLIC_BASE_URL is http:\/\/127\.0\.0\.1:3000, an address of this machine/,
  );
  t.equal(publicAddressWarning({ PUBLIC_BASE_URL: 'https://scores.example.org' }, '0.0.0.0', 'https://scores.example.org'), null);
  t.equal(publicAddressWarning({ PUBLIC_BASE_URL: 'http://192.168.1.20:3000' }, '0.0.0.0', 'http://192.168.1.20:3000'), null, 'a LAN address others can reach');
});

t.test('the server says so at start, once, and not when PUBLIC_BASE_URL is set', async (t) => {
  const warned = await startServerProcess({ HOST: '0.0.0.0', DATA_DIR: tempDataDir(t), PUBLIC_BASE_URL: '' });
  t.teardown(() => warned.child.kill('SIGKILL'));
  await until(() => warned.output.some((line) => line.includes('PUBLIC_BASE_URL')));
  const lines = warned.output.filter((line) => line.includes('PUBLIC_BASE_URL is not set'));
  t.equal(lines.length, 1, 'one warning line');
  t.equal((JSON.parse(lines[0]!) as { level: number }).level, 40, 'at level warn');
  warned.child.kill('SIGTERM');
  await warned.exited;

  const quiet = await startServerProcess({ HOST: '0.0.0.0', DATA_DIR: tempDataDir(t), PUBLIC_BASE_URL: 'https://scores.example.org' });
  t.teardown(() => quiet.child.kill('SIGKILL'));
  await fetch(`${quiet.url}/healthz`);
  t.notOk(
    quiet.output.some((line) => line.includes('PUBLIC_BASE_URL')),
    'no warning with a public address',
  );
  quiet.child.kill('SIGTERM');
  await quiet.exited;
});
