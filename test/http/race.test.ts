import t from 'tap';
import { json, startTestApp } from '../helpers/testApp.js';

t.test('16 clients racing to create the same id with different tokens: one 201, fifteen 403', async (t) => {
  // The race rule is under test, not the throttle on repeated 403s.
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: 'off' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const racers = Array.from({ length: 16 }, (_, i) => ({ i, token: `racer-${String(i).padStart(2, '0')}-0123456789abcdef` }));
  const responses = await Promise.all(
    racers.map(({ i, token }) =>
      fetch(`${base}/api/matches`, {
        method: 'POST',
        headers: { ...json, 'x-write-token': token },
        body: JSON.stringify({ id: 'contested', racer: i }),
      }).then(async (res) => ({ i, token, status: res.status, body: (await res.json()) as { message?: string } })),
    ),
  );
  const winners = responses.filter((r) => r.status === 201);
  const losers = responses.filter((r) => r.status === 403);
  t.equal(winners.length, 1, 'exactly one creator');
  t.equal(losers.length, 15, 'everyone else is forbidden');
  t.ok(
    losers.every((r) => /X-Write-Token/.test(r.body.message ?? '')),
    'with a message saying why',
  );
  const winner = winners[0]!;

  const stored = (await (await fetch(`${base}/api/matches/contested`)).json()) as { payload: { racer: number }; protected: boolean; versions: number };
  t.equal(stored.payload.racer, winner.i, "the stored payload is the winner's");
  t.equal(stored.protected, true);
  t.equal(stored.versions, 1, 'no loser replaced it');

  const again = await fetch(`${base}/api/matches`, {
    method: 'POST',
    headers: { ...json, 'x-write-token': winner.token },
    body: JSON.stringify({ id: 'contested', racer: winner.i, retry: true }),
  });
  t.equal(again.status, 201, "the winner's token keeps working");
  const loser = losers[0]!;
  const denied = await fetch(`${base}/api/matches/contested`, { method: 'PUT', headers: { ...json, 'x-write-token': loser.token }, body: '{"racer":-1}' });
  t.equal(denied.status, 403, "a loser's token never does");
});

t.test('16 clients racing to PUT-create the same id all succeed, unprotected, one version each', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const statuses = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      fetch(`${base}/api/matches/shared`, {
        method: 'PUT',
        headers: { ...json, 'x-write-token': `putter-${i}-0123456789abcdef` },
        body: JSON.stringify({ putter: i }),
      }).then((r) => r.status),
    ),
  );
  t.same(statuses, Array(16).fill(200));
  const stored = (await (await fetch(`${base}/api/matches/shared`)).json()) as { versions: number; protected: boolean };
  t.equal(stored.versions, 16, 'every write is a version: none lost');
  t.equal(stored.protected, false);
});
