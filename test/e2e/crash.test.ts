import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

/**
 * Acknowledged writes survive kill -9: clients write under load, the server is killed with
 * SIGKILL mid-load, restarted on the same DATA_DIR, and every write that got a 2xx is there,
 * still protected.
 */
t.test('every acknowledged write survives SIGKILL', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await startServerProcess({ DATA_DIR: dataDir });
  t.teardown(() => first.child.kill('SIGKILL'));
  const template = JSON.parse(fixtureText({ seed: 21 })) as Record<string, unknown>;

  /** Per match: the highest version a 2xx acknowledged, and its token. */
  const acknowledged = new Map<string, { version: number; token: string }>();
  let failures = 0;
  let stop = false;
  const client = async (n: number) => {
    for (let i = 0; !stop; i += 1) {
      const id = `crash-${n}-${Math.floor(i / 3)}`;
      const version = i % 3;
      const token = `token-${id}-0123456789abcdef`;
      try {
        const res = await fetch(version === 0 ? `${first.url}/api/matches` : `${first.url}/api/matches/${id}`, {
          method: version === 0 ? 'POST' : 'PUT',
          headers: { ...json, 'x-write-token': token },
          body: JSON.stringify({ ...template, id, version }),
        });
        if (res.ok) acknowledged.set(id, { version, token });
      } catch {
        failures += 1; // in flight when the server died: outcome unknown, not acknowledged
        return;
      }
    }
  };
  const clients = Array.from({ length: 8 }, (_, n) => client(n));
  const deadline = Date.now() + 20_000;
  while (acknowledged.size < 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  first.child.kill('SIGKILL');
  await first.exited;
  stop = true;
  await Promise.all(clients);
  t.ok(acknowledged.size >= 40, `${acknowledged.size} matches acknowledged before the kill (${failures} requests cut off)`);

  const second = await startServerProcess({ DATA_DIR: dataDir });
  t.teardown(() => second.child.kill('SIGKILL'));
  await waitUntilReady(second.url);
  let missing = 0;
  let unprotected = 0;
  let older = 0;
  for (const [id, { version }] of acknowledged) {
    const res = await fetch(`${second.url}/api/matches/${id}`);
    if (res.status !== 200) {
      missing += 1;
      continue;
    }
    const body = (await res.json()) as { protected: boolean; payload: { version: number } };
    if (!body.protected) unprotected += 1;
    if (body.payload.version < version) older += 1;
  }
  t.equal(missing, 0, 'no acknowledged match is missing');
  t.equal(older, 0, 'no acknowledged version was lost');
  t.equal(unprotected, 0, 'every match is still protected');
  const [someId] = acknowledged.keys();
  const overwrite = await fetch(`${second.url}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: someId }) });
  t.equal(overwrite.status, 403, 'and protection is still enforced');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0, 'the restarted server shuts down cleanly');
});
