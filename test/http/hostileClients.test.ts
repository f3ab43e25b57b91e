import { connect, type Socket } from 'node:net';
import t from 'tap';
import { json, startTestApp } from '../helpers/testApp.js';

// Defects 4 and 7 of issue 10 over real sockets: bodies that never end, too many at once, too large.

interface RawExchange {
  response: string;
  writeError: string | null;
  closedAfterMs: number;
}

/** Sends headers and then `bodyBytes` in chunks (backpressure respected), collects the whole answer. */
function rawUpload(base: string, { bodyBytes, declared = bodyBytes, drip }: { bodyBytes: number; declared?: number; drip?: number }): Promise<RawExchange> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let writeError: string | null = null;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError = error.code ?? error.message;
    });
    socket.on('close', () => resolve({ response: Buffer.concat(received).toString(), writeError, closedAfterMs: Date.now() - started }));
    socket.write(`POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"id":"big","x":"`);
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      if (socket.destroyed) return;
      if (drip !== undefined) {
        if (sent >= bodyBytes) return;
        socket.write('a');
        sent += 1;
        setTimeout(pump, drip);
        return;
      }
      while (sent < bodyBytes) {
        const n = Math.min(chunk.length, bodyBytes - sent);
        sent += n;
        if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);

t.test('defect 7: an oversized upload reads its 413 answer, not a broken pipe', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const [mib, times] of [
    [6, 10],
    [64, 5],
  ] as const) {
    for (let i = 0; i < times; i += 1) {
      const { response, writeError } = await rawUpload(base, { bodyBytes: mib * 1024 * 1024 });
      t.equal(statusOf(response), 413, `${mib} MiB #${i + 1}: 413`);
      t.equal(writeError, null, `${mib} MiB #${i + 1}: no EPIPE or reset while sending`);
      t.match(bodyOf(response), /"message":"the request body is larger than this server accepts \(MAX_BODY_BYTES\)/);
    }
  }
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'still serving');
});

t.test('defect 4: a body that stops coming is cut off (REQUEST_TIMEOUT_MS)', async (t) => {
  const { app } = await startTestApp(t, { REQUEST_TIMEOUT_MS: '2000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const { response, closedAfterMs } = await rawUpload(base, { bodyBytes: 10_000, drip: 200 });
  t.equal(statusOf(response), 408, 'answered 408 Request Timeout');
  t.ok(closedAfterMs < 6000, `cut off after ${closedAfterMs} ms (timeout 2000 ms, checked every second)`);
  t.equal((await fetch(`${base}/healthz`)).status, 200);
});

t.test('defect 4: request bytes in flight are capped: 503 with Retry-After beyond MAX_BYTES_IN_FLIGHT, released after', async (t) => {
  const { app } = await startTestApp(t, { MAX_BODY_BYTES: '400000', MAX_BYTES_IN_FLIGHT: '900000', REQUEST_TIMEOUT_MS: '20000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // Two slow uploads (from two addresses) that have sent 399 kB of their 400 kB: what the server has read of
  // them (at least 330 kB each; the last 64 kB may wait in the socket) is held, over 660 kB of the 900 kB.
  const { hostname, port } = new URL(base);
  const holders = ['127.0.0.2', '127.0.0.3'].map((localAddress) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress });
    socket.on('error', () => {});
    socket.write(
      `PUT /api/matches/slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400000\r\n\r\n{"x":"${'a'.repeat(399_000 - 6)}`,
    );
    return socket;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const refused = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'third', pad: 'x'.repeat(350_000) }) });
  t.equal(refused.status, 503);
  t.equal(refused.headers.get('retry-after'), '2');
  t.match(await refused.json(), { statusCode: 503, message: /too many uploads at once \(MAX_BYTES_IN_FLIGHT\)/ });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"small"}' })).status, 201, 'a small upload still fits');
  for (const socket of holders) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'third', pad: 'x'.repeat(350_000) }) });
  t.equal(after.status, 201, 'aborted uploads release their share');
});

t.test('rate limits: WRITE_RATE_LIMIT per address; TOKEN_FAILURE_LIMIT after repeated 403s on one match', async (t) => {
  const { app } = await startTestApp(t, { WRITE_RATE_LIMIT: '8/minute', TOKEN_FAILURE_LIMIT: '3/minute' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const write = (id: string, token: string | null) =>
    fetch(`${base}/api/matches/${id}`, { method: 'PUT', headers: { ...json, ...(token ? { 'x-write-token': token } : {}) }, body: '{"v":1}' });
  const good = 'the-right-token-0123456789';
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': good }, body: '{"id":"guarded"}' })).status, 201);
  const guesses = [];
  for (let i = 0; i < 3; i += 1) guesses.push((await write('guarded', `guess-${i}-0123456789`)).status);
  t.same(guesses, [403, 403, 403]);
  const throttled = await write('guarded', good);
  t.equal(throttled.status, 429, 'after 3 wrong tokens even the right one waits: guessing is slowed');
  t.ok(Number(throttled.headers.get('retry-after')) > 0, 'with Retry-After');
  t.match(await throttled.json(), { statusCode: 429, message: /wrong X-Write-Token.*TOKEN_FAILURE_LIMIT/ });
  t.equal((await write('other', null)).status, 200, 'other matches are not throttled');
  // 1 POST + 5 PUTs so far; the limit is 8 writes a minute.
  t.equal((await write('other', null)).status, 200);
  t.equal((await write('other', null)).status, 200);
  const limited = await write('other', null);
  t.equal(limited.status, 429, 'the 9th write in a minute');
  t.ok(Number(limited.headers.get('retry-after')) > 0, 'with Retry-After');
  t.match(await limited.json(), { statusCode: 429, message: /too many writes from your address \(WRITE_RATE_LIMIT 8\/minute\)/ });
  t.equal((await fetch(`${base}/api/matches/other`)).status, 200, 'reads are not limited');
});

t.test('the client address: X-Forwarded-For counts only behind a configured TRUST_PROXY', async (t) => {
  const write = (app: Awaited<ReturnType<typeof startTestApp>>['app'], forwardedFor: string) =>
    app.inject({ method: 'PUT', url: '/api/matches/proxied', headers: { ...json, 'x-forwarded-for': forwardedFor }, payload: '{}' }).then((r) => r.statusCode);
  const direct = await startTestApp(t, { WRITE_RATE_LIMIT: '2/minute' });
  t.same(
    [await write(direct.app, '198.51.100.1'), await write(direct.app, '198.51.100.2'), await write(direct.app, '198.51.100.3')],
    [200, 200, 429],
    'without TRUST_PROXY a forged header changes nothing',
  );
  const proxied = await startTestApp(t, { WRITE_RATE_LIMIT: '2/minute', TRUST_PROXY: '127.0.0.1' });
  t.same(
    [await write(proxied.app, '198.51.100.1'), await write(proxied.app, '198.51.100.1'), await write(proxied.app, '198.51.100.1')],
    [200, 200, 429],
    'behind the proxy: per client',
  );
  t.equal(await write(proxied.app, '198.51.100.2'), 200, 'another client behind the proxy has its own count');
});

t.test('load shedding: while the event loop lags, requests get 503 with Retry-After; /healthz and /readyz still answer', async (t) => {
  const { app } = await startTestApp(t, { MAX_EVENT_LOOP_DELAY_MS: '100' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // Block the loop for a while, as a runaway request would.
  const until = Date.now() + 1500;
  while (Date.now() < until);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const shed = await fetch(`${base}/api/matches/anything`);
  t.equal(shed.status, 503);
  t.ok(shed.headers.get('retry-after'), 'with Retry-After');
  t.match(await shed.json(), { statusCode: 503, message: /overloaded; retry in a few seconds/ });
  t.equal((await fetch(`${base}/healthz`)).status, 200, '/healthz is exempt');
  // Its own answer, not the shedding's 503 (which its 503 schema could not serialise: a 500 and an error logged).
  const ready = await fetch(`${base}/readyz`);
  t.equal(ready.status, 200, '/readyz is exempt');
  t.match(await ready.json(), { status: 'ready' });
});
