import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { allProjections } from '../../projections/all.js';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp } from '../helpers/testApp.js';

/**
 * The secrets sweep (issue 10): a run that uses every kind of secret, right and wrong, then a
 * search for each in every log line, every response, every read-model document and every byte
 * of every file the stores wrote.
 */
t.test('no token, key or password used is in any log line, response, read-model document or store file', async (t) => {
  const writeTokenKey = randomBytes(32).toString('base64');
  const sessionSecret = randomBytes(32).toString('base64');
  const s = await startTestApp(t, { WRITE_TOKEN_KEY: writeTokenKey, SESSION_SECRET: sessionSecret, LOG_LEVEL: 'trace' });
  const { app, engine, dataDir, logs } = s;
  const responses: string[] = [];
  app.addHook('onSend', async (_request, reply, payload) => {
    responses.push(`${JSON.stringify(reply.getHeaders())}\n${typeof payload === 'string' ? payload : ''}`);
    return payload;
  });
  const password = `pw-${randomBytes(9).toString('hex')}`;
  const wrongPassword = `wrong-pw-${randomBytes(9).toString('hex')}`;
  const token = `tok-${randomBytes(16).toString('hex')}`;
  const wrongToken = `bad-${randomBytes(16).toString('hex')}`;
  // Too short to bind (8 is the minimum); the '~' keeps it from turning up by chance inside stored hex ids and hashes.
  const shortToken = `~${randomBytes(3).toString('hex')}`;
  const wrongKey = `mlk_${randomBytes(5).toString('hex')}_${randomBytes(19).toString('hex')}`;

  const client = dashboardClient(app);
  await client.get('/dashboard/signup');
  await client.post('/dashboard/signup', { clubName: 'Sweep VC', email: 'sweep@club.test', password });
  await client.get('/dashboard/teams');
  await client.post('/dashboard/teams', { name: 'U18' });
  const connect = await client.get('/dashboard/connect');
  const clubId = /data-testid="club-id">([0-9a-z]{16})</.exec((await client.get('/dashboard')).body)?.[1] ?? '';
  const teamId = /data-testid="team-id">([0-9a-z]{10})</.exec(connect.body)?.[1] ?? '';
  const created = await client.post('/dashboard/connect/keys', { label: 'tablet' });
  const appKey = /value="(mlk_[^"]+)"/.exec(created.body)?.[1] ?? '';
  t.match(appKey, /^mlk_/, 'an app key was issued');
  // The one response that must show a secret: the new key, shown once to the admin who made it.
  const keyPage = responses.findIndex((r) => r.includes(appKey));
  t.ok(keyPage >= 0);
  responses.splice(keyPage, 1);
  await client.post('/dashboard/logout', {});
  await client.get('/dashboard/login');
  await client.post('/dashboard/login', { email: 'sweep@club.test', password: wrongPassword });
  await client.post('/dashboard/login', { email: 'sweep@club.test', password });

  const payload = JSON.stringify({ id: 'sweep', clubId, teamId, playerStats: [{ name: 'A', kills: 1 }], actions: [{ seq: 1, type: 'kill' }] });
  const send = (method: 'POST' | 'PUT', url: string, headers: Record<string, string>) => app.inject({ method, url, headers: { ...json, ...headers }, payload });
  t.equal((await send('POST', '/api/matches', { 'x-write-token': token, 'x-app-key': appKey })).statusCode, 201);
  t.equal((await send('PUT', '/api/matches/sweep', { 'x-write-token': wrongToken, 'x-app-key': wrongKey })).statusCode, 403);
  t.equal((await send('PUT', '/api/matches/sweep', { 'x-write-token': shortToken })).statusCode, 403);
  t.equal((await send('PUT', '/api/matches/sweep', { 'x-write-token': token, 'x-app-key': wrongKey })).statusCode, 200);
  t.equal((await send('POST', '/api/matches', { 'x-write-token': shortToken })).statusCode, 403, 'a short token on the protected match: 403');
  const fresh = await app.inject({ method: 'POST', url: '/api/matches', headers: { ...json, 'x-write-token': shortToken }, payload: '{"id":"sweep-new"}' });
  t.equal(fresh.statusCode, 400, 'and 400 where it would be bound');
  for (const url of [
    '/api/matches/sweep',
    '/api/matches/sweep/history',
    '/match/sweep',
    '/match/sweep/history',
    '/api/matches/sweep?revision=0',
    '/dashboard/matches',
    '/dashboard/connect/sync-status',
  ]) {
    await client.get(url);
  }
  const documents: string[] = [];
  for (const projection of allProjections)
    for (const collection of projection.collections) documents.push(...(await engine.readModel.find(collection)).map((doc) => JSON.stringify(doc)));
  t.ok(documents.length > 3, `${documents.length} read-model documents`);
  await s.close();
  const files = readdirSync(dataDir).map((name) => ({ name, bytes: readFileSync(join(dataDir, name)) }));
  t.ok(
    files.some((f) => f.name.startsWith('events.sqlite')),
    `store files: ${files.map((f) => f.name).join(', ')}`,
  );

  const secrets = { password, wrongPassword, token, wrongToken, shortToken, appKey, wrongKey, writeTokenKey, sessionSecret };
  for (const [name, secret] of Object.entries(secrets)) {
    t.notOk(
      logs.some((line) => line.includes(secret)),
      `${name}: in no log line (${logs.length} lines)`,
    );
    t.notOk(
      responses.some((r) => r.includes(secret)),
      `${name}: in no response (${responses.length})`,
    );
    t.notOk(
      documents.some((d) => d.includes(secret)),
      `${name}: in no read-model document`,
    );
    for (const file of files) t.equal(file.bytes.indexOf(secret), -1, `${name}: not in ${file.name}`);
  }
});
