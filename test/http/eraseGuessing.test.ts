import { request } from 'node:http';
import t from 'tap';
import { ERASE_TOKEN_MIN } from '../../src/domain/writeToken.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Issue 57, item 1: erasure is as hard to guess as any write, over a real listening server.

const right = 'erase-me-token-0123456789abcdef';

/** One request from `localAddress` on a connection of its own: status, headers and JSON body. */
function send(
  base: string,
  method: string,
  path: string,
  { token, body, localAddress = '127.0.0.1' }: { token?: string; body?: string; localAddress?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: { message?: string } }>((resolve, reject) => {
    const headers = { ...(body === undefined ? {} : json), ...(token === undefined ? {} : { 'x-write-token': token }) };
    const req = request(`${base}${path}`, { method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text === '' ? {} : (JSON.parse(text) as { message?: string }) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function protectedMatch(base: string, id: string, token = right) {
  const created = await send(base, 'POST', '/api/matches', { token, body: JSON.stringify({ id, sport: 'volleyball' }) });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}`);
}

t.test('DELETE shares TOKEN_FAILURE_LIMIT with PUT: wrong tokens through either method spend one budget per match and address', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: '3/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  await protectedMatch(base, 'shared-budget');
  const guesses = [
    await send(base, 'PUT', '/api/matches/shared-budget', { token: 'guess-one-0123456789abcdef', body: '{"v":1}' }),
    await send(base, 'DELETE', '/api/matches/shared-budget', { token: 'guess-two-0123456789abcdef' }),
    await send(base, 'DELETE', '/api/matches/shared-budget', { token: 'guess-three-0123456789abcd' }),
  ];
  t.same(
    guesses.map((g) => g.status),
    [403, 403, 403],
    'three wrong tokens compared, by PUT and by DELETE',
  );
  const throttled = await send(base, 'DELETE', '/api/matches/shared-budget', { token: 'guess-four-0123456789abcde' });
  t.equal(throttled.status, 429, 'the fourth guess waits, though it came by DELETE');
  t.ok(Number(throttled.headers['retry-after']) > 0, 'with Retry-After');
  t.match(throttled.json.message, /TOKEN_FAILURE_LIMIT/, 'and a message naming the limit');
  t.equal((await send(base, 'DELETE', '/api/matches/shared-budget', { token: right })).status, 429, 'the right token from the guessing address waits too');
  t.equal((await send(base, 'PUT', '/api/matches/shared-budget', { token: 'guess-five-0123456789abcde', body: '{}' })).status, 429, 'and so does PUT');
  t.equal((await send(base, 'GET', '/api/matches/shared-budget')).status, 200, 'the match is still there');
  const erased = await send(base, 'DELETE', '/api/matches/shared-budget', { token: right, localAddress: '127.0.0.2' });
  t.equal(erased.status, 200, "the owner, from another address, erases it: the guesser's budget is its own");
});

t.test('a guesser looping DELETE from one address gets at most TOKEN_FAILURE_LIMIT tokens compared in a window', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: '10/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  await protectedMatch(base, 'guessed');
  const statuses: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    statuses.push((await send(base, 'DELETE', '/api/matches/guessed', { token: `guess-${String(i).padStart(4, '0')}-0123456789abcdef` })).status);
  }
  t.equal(statuses.filter((s) => s === 403).length, 10, 'ten guesses compared');
  t.equal(statuses.filter((s) => s === 429).length, 190, 'the other 190 refused before any comparison');
  t.equal((await send(base, 'GET', '/api/matches/guessed')).status, 200, 'not erased');
});

t.test('DELETE counts in WRITE_RATE_LIMIT with POST and PUT', async (t) => {
  const { app } = await startTestApp(t, { WRITE_RATE_LIMIT: '3/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  await protectedMatch(base, 'rate-1');
  t.equal((await send(base, 'PUT', '/api/matches/rate-1', { token: right, body: '{"v":2}' })).status, 200, 'the second write');
  t.equal((await send(base, 'DELETE', '/api/matches/rate-2', { token: right })).status, 404, 'the third: an erasure (of nothing)');
  const fourth = await send(base, 'DELETE', '/api/matches/rate-1', { token: right });
  t.equal(fourth.status, 429, 'the fourth write from the address, an erasure, waits');
  t.match(fourth.json.message, /WRITE_RATE_LIMIT/);
  t.equal((await send(base, 'GET', '/api/matches/rate-1')).status, 200, 'reads are not counted, and the match is there');
  t.equal((await send(base, 'DELETE', '/api/matches/rate-1', { token: right, localAddress: '127.0.0.3' })).status, 200, 'another address erases');
});

t.test(`erasure through the API needs a token of at least ${ERASE_TOKEN_MIN} characters; a shorter one still protects writes`, async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const short = 'short-8c';
  await protectedMatch(base, 'short-token', short);
  const withRight = await send(base, 'DELETE', '/api/matches/short-token', { token: short });
  const withWrong = await send(base, 'DELETE', '/api/matches/short-token', { token: 'wrong-8c' });
  t.equal(withRight.status, 403, 'the right short token cannot erase');
  t.match(withRight.json.message, new RegExp(`at least ${ERASE_TOKEN_MIN} characters.*matchlog erase`));
  t.same(withWrong, { ...withWrong, status: 403, json: withRight.json }, 'a wrong short token gets the same answer: DELETE tells nothing of a short token');
  t.equal((await send(base, 'PUT', '/api/matches/short-token', { token: short, body: '{"v":2}' })).status, 200, 'the short token still writes');
  t.equal((await send(base, 'PUT', '/api/matches/short-token', { token: 'wrong-8c', body: '{"v":3}' })).status, 403, 'and still protects');
  t.equal((await send(base, 'GET', '/api/matches/short-token')).status, 200, 'not erased');
  const long = 'a'.repeat(ERASE_TOKEN_MIN);
  await protectedMatch(base, 'long-token', long);
  t.equal((await send(base, 'DELETE', '/api/matches/long-token', { token: long })).status, 200, `a ${ERASE_TOKEN_MIN}-character token erases`);
});

t.test('CORS: a browser scoring app may erase, and may read every header the API answers with', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const preflight = await fetch(`${base}/api/matches/any`, {
    method: 'OPTIONS',
    headers: { origin: 'https://scorer.example', 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'x-write-token' },
  });
  t.equal(preflight.status, 204);
  t.match(preflight.headers.get('access-control-allow-methods'), /DELETE/, 'DELETE allowed cross-origin');
  t.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Write-Token/i);
  await protectedMatch(base, 'cors-1');
  const payload = await fetch(`${base}/api/matches/cors-1/payload?revision=0`, { headers: { origin: 'https://scorer.example' } });
  t.ok(payload.headers.get('matchlog-payload-salt'), 'the payload answer carries its salt');
  const exposed = payload.headers.get('access-control-expose-headers') ?? '';
  for (const header of [
    'Matchlog-Payload-Salt',
    'Matchlog-Latest-Revision',
    'Link',
    'Matchlog-Club-Sync',
    'Retry-After',
    'ETag',
    'X-Request-Id',
    'X-RateLimit-Remaining',
  ]) {
    t.match(exposed, new RegExp(header, 'i'), `${header} exposed`);
  }
});
