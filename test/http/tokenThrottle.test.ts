import t from 'tap';
import { createTokenFailureThrottle } from '../../src/http/api/tokenFailures.js';
import { json, startTestApp } from '../helpers/testApp.js';

const right = 'the-right-token-0123456789';

t.test('over a real server: a stale device re-sending its wrong token never locks out the right one from the same address', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: '3/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const put = (token: string | null) =>
    fetch(`${base}/api/matches/gym`, { method: 'PUT', headers: { ...json, ...(token ? { 'x-write-token': token } : {}) }, body: '{"score":1}' });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': right }, body: '{"id":"gym"}' })).status, 201);
  const stale: number[] = [];
  for (let i = 0; i < 12; i += 1) stale.push((await put('stale-token-from-last-season')).status);
  t.same(stale, [403, 403, 403, ...Array<number>(9).fill(429)], 'the stale token is refused, then throttled');
  t.equal((await put(right)).status, 200, 'the scorer behind the same NAT writes on with the right token');
  t.equal((await put(null)).status, 403, 'a device sending no token is a second token: refused, not throttled');
  t.equal((await put(right)).status, 200, 'still writing');
});

t.test('over a real server: a guesser trying many tokens is throttled after TOKEN_FAILURE_LIMIT different ones', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: '3/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const put = (token: string) => fetch(`${base}/api/matches/final`, { method: 'PUT', headers: { ...json, 'x-write-token': token }, body: '{"score":9}' });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': right }, body: '{"id":"final"}' })).status, 201);
  const guesses: number[] = [];
  for (let i = 0; i < 10; i += 1) guesses.push((await put(`guess-${i}-0123456789`)).status);
  t.same(guesses, [403, 403, 403, ...Array<number>(7).fill(429)], 'three different guesses, then every write from the address waits');
  const answer = await put(right);
  t.equal(answer.status, 429, 'the right token from the guessing address waits too (the guessing bound holds)');
  t.ok(Number(answer.headers.get('retry-after')) > 0, 'with Retry-After');
});

t.test('the throttle alone, on a clock: per token, then per address after many tokens; each window ends', async (t) => {
  let clock = 0;
  const throttle = createTokenFailureThrottle({ max: 3, windowMs: 60_000, text: '3/minute' }, () => clock);
  for (let i = 0; i < 3; i += 1) throttle.recordFailure('10.0.0.1', 'm', 'old');
  t.equal(throttle.retryAfter('10.0.0.1', 'm', 'old'), 60, 'the repeated token waits');
  t.equal(throttle.retryAfter('10.0.0.1', 'm', right), null, 'another token does not');
  t.equal(throttle.retryAfter('10.0.0.2', 'm', 'old'), null, 'another address does not');
  t.equal(throttle.retryAfter('10.0.0.1', 'other', 'old'), null, 'another match does not');
  throttle.recordFailure('10.0.0.1', 'm', 'g1');
  throttle.recordFailure('10.0.0.1', 'm', 'g2');
  clock = 30_000;
  t.equal(throttle.retryAfter('10.0.0.1', 'm', right), 30, 'three different tokens: the address waits for the rest of the window');
  clock = 60_000;
  t.equal(throttle.retryAfter('10.0.0.1', 'm', right), null, 'the window has ended');
  t.equal(throttle.retryAfter('10.0.0.1', 'm', 'old'), null);
});
