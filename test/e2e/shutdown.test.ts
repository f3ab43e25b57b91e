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
  t.ok(server.output.some((line) => line.includes('"msg":"stopped"')), 'logged a clean stop');
  const served = outcomes.filter((o) => o === 200).length;
  t.ok(outcomes.every((o) => o === 200 || o === 503 || o === 'refused'), `every request was served or turned away (${served} served): ${outcomes.join(',')}`);

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
