import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

t.test('SIGTERM: in-flight requests finish, the store closes cleanly, the process exits 0', async (t) => {
  const dataDir = tempDataDir(t);
  const server = await startServerProcess({ DATA_DIR: dataDir });
  t.teardown(() => server.child.kill('SIGKILL'));
  const body = fixtureText({ seed: 8 });
  const outcomes: (number | 'refused')[] = [];
  const requests = Array.from({ length: 40 }, async (_, i) => {
    try {
      const res = await fetch(`${server.url}/api/matches/${`graceful-${i}`}`, { method: 'PUT', headers: json, body });
      outcomes[i] = res.status;
    } catch {
      outcomes[i] = 'refused';
    }
  });
  // Signal while the batch is being served.
  await new Promise((resolve) => setTimeout(resolve, 30));
  server.child.kill('SIGTERM');
  await Promise.all(requests);
  t.equal(await server.exited, 0, 'exit code 0');
  t.ok(
    server.output.some((line) => line.includes('"msg":"stopped"')),
    'logged a clean stop',
  );
  const served = outcomes.filter((o) => o === 200).length;
  t.ok(
    outcomes.every((o) => o === 200 || o === 503 || o === 'refused'),
    `every request was served or turned away (${served} served): ${outcomes.join(',')}`,
  );

  const again = await startServerProcess({ DATA_DIR: dataDir });
  t.teardown(() => again.child.kill('SIGKILL'));
  await waitUntilReady(again.url);
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome !== 200) continue;
    t.equal((await fetch(`${again.url}/api/matches/graceful-${i}`)).status, 200, `graceful-${i} kept`);
  }
  again.child.kill('SIGTERM');
  await again.exited;
});

t.test('SIGTERM with a slow client: the process exits by SHUTDOWN_TIMEOUT_MS, not when the client is done', async (t) => {
  const { connect } = await import('node:net');
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), SHUTDOWN_TIMEOUT_MS: '2000' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const { hostname, port } = new URL(server.url);
  const slow = connect(Number(port), hostname);
  slow.on('error', () => {});
  slow.write('PUT /api/matches/slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"v":');
  const drip = setInterval(() => slow.write('1'), 500);
  t.teardown(() => {
    clearInterval(drip);
    slow.destroy();
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const code = await server.exited;
  const tookMs = Date.now() - signalled;
  t.equal(code, 1, 'exit code 1: stopped by the deadline');
  t.ok(tookMs < 8000, `exited ${tookMs} ms after SIGTERM (deadline 2000 ms)`);
  t.ok(
    server.output.some((line) => line.includes('SHUTDOWN_TIMEOUT_MS')),
    'logged why',
  );
});
