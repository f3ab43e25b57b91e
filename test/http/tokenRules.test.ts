import t from 'tap';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Defect 1 (issue 10): the token's format matters only where it is bound; over a real listening server.
const good = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';

t.test('odd tokens follow the state table: 400 only on a creating POST, 403 on a protected match, ignored elsewhere', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: 'off' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const send = (method: string, path: string, token: string | null, body: object) =>
    fetch(`${base}${path}`, { method, headers: { ...json, ...(token === null ? {} : { 'x-write-token': token }) }, body: JSON.stringify(body) });
  const odd = ['short', 'has spaces in it', 'é-latin1-token', 'x'.repeat(2000), ''];

  t.equal((await send('POST', '/api/matches', good, { id: 'p', v: 1 })).status, 201);
  for (const token of odd) {
    const post = await send('POST', '/api/matches', token, { id: 'p', v: 2 });
    t.equal(post.status, 403, `POST on protected with ${JSON.stringify(token.slice(0, 12))}`);
    t.match(await post.json(), { statusCode: 403, message: /X-Write-Token/ });
    t.equal((await send('PUT', '/api/matches/p', token, { v: 2 })).status, 403, 'PUT likewise');
  }

  t.equal((await send('POST', '/api/matches', null, { id: 'u', v: 1 })).status, 201);
  for (const [i, token] of odd.entries()) {
    t.equal((await send('POST', '/api/matches', token, { id: 'u', v: i })).status, 201, 'unprotected: POST ignores the header');
    t.equal((await send('PUT', '/api/matches/u', token, { v: i })).status, 200, 'unprotected: PUT ignores the header');
    t.equal((await send('PUT', `/api/matches/put-${i}`, token, { v: i })).status, 200, 'PUT-create ignores the header');
  }

  for (const [i, token] of odd.entries()) {
    const res = await send('POST', '/api/matches', token, { id: `new-${i}` });
    t.equal(res.status, 400, 'a creating POST refuses a token it cannot bind');
    t.match(await res.json(), { statusCode: 400, message: /8-1024 visible ASCII characters.*128 random bits/ });
    t.equal((await fetch(`${base}/api/matches/new-${i}`)).status, 404, 'nothing stored');
  }
  const view = (await (await fetch(`${base}/api/matches/p`)).json()) as { payload: { v: number }; protected: boolean };
  t.same([view.payload.v, view.protected], [1, true], 'the protected match is unchanged');
});

t.test('defect 2: a 128-character id is reachable on every route', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const id = `a${'b-._~'.repeat(25)}${'c'.repeat(2)}`;
  t.equal(id.length, 128);
  const created = await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': good }, body: JSON.stringify({ id, v: 1 }) });
  t.equal(created.status, 201);
  const put = await fetch(`${base}/api/matches/${id}`, { method: 'PUT', headers: { ...json, 'x-write-token': good }, body: '{"v":2}' });
  t.equal(put.status, 200, 'PUT');
  for (const path of [`/api/matches/${id}`, `/api/matches/${id}?revision=0`, `/match/${id}`, `/api/matches/${id}/history`, `/match/${id}/history`]) {
    t.equal((await fetch(`${base}${path}`)).status, 200, path.replace(id, '<128>'));
  }
  // The club dashboard's match page takes match ids too (behind a session).
  const club = dashboardClient(app);
  await club.get('/dashboard/signup');
  await club.post('/dashboard/signup', { clubName: 'Long Ids VC', email: 'long@ids.test', password: 'correct horse battery' });
  const dashboardPage = await club.get(`/dashboard/matches/${id}`);
  t.not(dashboardPage.statusCode, 414, `dashboard match page: ${dashboardPage.statusCode}, not 414`);
  t.ok([200, 404].includes(dashboardPage.statusCode), 'routed: the page or "not a match of this club"');
  const tooLong = await fetch(`${base}/api/matches/${id}x`);
  t.equal(tooLong.status, 400, '129 characters: a 400 naming the rule, not a 414');
  t.match(await tooLong.json(), { message: /1-128 characters/ });
});
