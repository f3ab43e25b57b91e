import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { fixtureText } from '../helpers/fixtures.js';
import { openLiveStream } from '../helpers/liveStreams.js';
import { json, logLines, startTestApp } from '../helpers/testApp.js';

// Issue 33, items 2, 3 and part of 9, over a real listening server and real sockets.

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upload that declares `declared` bytes, sends `sent` of them at once, then one byte every `dripMs` (never finishing unless told). */
function slowUpload(
  base: string,
  {
    declared,
    sent = 1,
    dripMs = 500,
    localAddress = '127.0.0.1',
    method = 'POST',
    path = '/api/matches',
  }: { declared: number; sent?: number; dripMs?: number; localAddress?: string; method?: string; path?: string },
) {
  const { hostname, port } = new URL(base);
  const socket: Socket = connect({ port: Number(port), host: hostname, localAddress });
  const received: Buffer[] = [];
  let writeError: string | null = null;
  socket.on('data', (chunk) => received.push(chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => {
    writeError = error.code ?? error.message;
  });
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
  socket.write('a'.repeat(sent));
  const drip = setInterval(() => socket.writable && socket.write('a'), dripMs);
  return {
    /** The answer so far, as text. */
    response: () => Buffer.concat(received).toString(),
    writeError: () => writeError,
    /** Sends `bytes` more at once. */
    send: (bytes: number) => socket.write('a'.repeat(bytes)),
    close() {
      clearInterval(drip);
      socket.destroy();
    },
  };
}

/** A GET through `agent` (or a connection of its own from `localAddress`): status (or the socket error's code), headers, body. */
function get(url: string, agent: Agent | false, headers: Record<string, string> = {}, localAddress?: string) {
  return new Promise<{ status: number | string; headers: Record<string, string | string[] | undefined>; body: string }>((resolve) => {
    const req = request(url, { agent, headers, ...(localAddress ? { localAddress } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, headers: {}, body: '' }));
    req.end();
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

t.test('item 2: live streams are capped per client address (429) and in all (503), with Retry-After and a JSON message', async (t) => {
  const { app } = await startTestApp(t, { MAX_LIVE_STREAMS: '5', MAX_LIVE_STREAMS_PER_ADDRESS: '2' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"cap-1"}' })).status, 201);
  const open = (address: string) => openLiveStream(base, '/match/cap-1/live', address);
  const first = [await open('127.0.0.2'), await open('127.0.0.2')];
  t.same(
    first.map((s) => s.status),
    [200, 200],
    'two streams from one address',
  );
  t.teardown(() => {
    for (const s of first) s.close();
  });

  const perAddress = await open('127.0.0.2');
  t.equal(perAddress.status, 429, 'a third from the same address: 429');
  t.equal(perAddress.headers['retry-after'], '30');
  t.match(perAddress.headers['content-type'], /^application\/json/);
  t.match(JSON.parse(perAddress.body), { statusCode: 429, error: 'Too Many Requests', message: /MAX_LIVE_STREAMS_PER_ADDRESS is 2\); reload the page/ });

  const others = [await open('127.0.0.3'), await open('127.0.0.3'), await open('127.0.0.4')];
  t.teardown(() => {
    for (const s of others) s.close();
  });
  t.same(
    others.map((s) => s.status),
    [200, 200, 200],
    'other addresses have their own share',
  );
  const total = await open('127.0.0.5');
  t.equal(total.status, 503, 'a sixth stream in all: 503');
  t.equal(total.headers['retry-after'], '30');
  t.match(JSON.parse(total.body), { statusCode: 503, error: 'Service Unavailable', message: /\(MAX_LIVE_STREAMS\); reload the page/ });
  t.equal((await fetch(`${base}/match/cap-1`)).status, 200, 'pages still load while streams are full');

  first[0]!.close();
  await wait(200);
  const again = await open('127.0.0.2');
  t.equal(again.status, 200, 'a closed stream frees its slot, in all and for its address');
  again.close();
});

t.test('a stream the caps refuse is answered before routing, with the answer the route gives (status, headers, body)', async (t) => {
  // Behind a trusted proxy the address is known only after routing: the route itself refuses there.
  const early = await startTestApp(t, { MAX_LIVE_STREAMS_PER_ADDRESS: '1' });
  const routed = await startTestApp(t, { MAX_LIVE_STREAMS_PER_ADDRESS: '1', TRUST_PROXY: '127.0.0.1' });
  const answers = [];
  for (const { app } of [early, routed]) {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"early-1"}' })).status, 201);
    const held = await openLiveStream(base, '/match/early-1/live', '127.0.0.2');
    t.teardown(() => held.close());
    t.equal(held.status, 200);
    // Any id: the caps are checked before the match is read, on both paths.
    const refused = await openLiveStream(base, '/match/no-such-match/live?lastEventId=3', '127.0.0.2');
    const { date: _date, 'x-request-id': requestId, ...headers } = refused.headers;
    t.match(requestId, /^[0-9a-f-]{36}$/, 'a request id');
    answers.push({ status: refused.status, headers, body: refused.body });
    const html = await fetch(`${base}/match/early-1/live`, { headers: { accept: 'text/html' } });
    t.equal(html.status, 200, 'another address (127.0.0.1) has its own share');
    await html.body?.cancel();
  }
  t.same(answers[0], answers[1], 'the same answer before routing as from the route');
  t.equal(answers[0]!.status, 429);

  const base = `http://127.0.0.1:${(early.app.server.address() as { port: number }).port}`;
  const refusedPage = await openLiveStream(base, '/match/early-1/live', '127.0.0.2');
  t.equal(refusedPage.status, 429);
  const asBrowser = await new Promise<{ status: number; type: string }>((resolve) => {
    const socket = connect({ port: Number(new URL(base).port), host: '127.0.0.1', localAddress: '127.0.0.2' });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve({ status: statusOf(text), type: /content-type: ([^\r]*)/i.exec(text)?.[1] ?? '' }));
    socket.write('GET /match/early-1/live HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nX-Request-Id: asked-1\r\nConnection: close\r\n\r\n');
  });
  t.same(asBrowser, { status: 429, type: 'text/html; charset=utf-8' }, 'a browser still gets the error page (from the route)');
  const accessLines = logLines<{ msg: string; res?: { statusCode: number }; req?: { url: string } }>(early.logs).filter(
    (line) => line.msg === 'request completed' && line.res?.statusCode === 429,
  );
  t.same(
    accessLines.map((line) => line.req?.url),
    ['/match/early-1/live'],
    "only the browser's refusal went through the app (the early ones have no access line)",
  );
  t.ok(
    logLines<{ msg: string; perAddress?: number }>(early.logs).some((line) => /^live streams refused/.test(line.msg) && line.perAddress === 1),
    'refusals answered before routing are counted in a warning line',
  );
});

t.test('issue 57: a client looping refused streams on one keep-alive connection has that connection closed; its neighbours are served', async (t) => {
  const { app } = await startTestApp(t, { MAX_LIVE_STREAMS_PER_ADDRESS: '2' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"loop-1"}' })).status, 201);
  const gym = '127.0.0.8';
  const held = [await openLiveStream(base, '/match/loop-1/live', gym), await openLiveStream(base, '/match/loop-1/live', gym)];
  t.teardown(() => {
    for (const s of held) s.close();
  });
  t.same(
    held.map((s) => s.status),
    [200, 200],
  );
  // The looper: one socket, asking again and again on it, as a keep-alive client would.
  const looper = connect({ port: Number(new URL(base).port), host: '127.0.0.1', localAddress: gym });
  let received = '';
  looper.on('data', (chunk) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => looper.once('close', () => resolve()));
  looper.on('error', () => {});
  for (let i = 0; i < 5; i += 1) looper.write('GET /match/loop-1/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
  await closed;
  const answers = received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
  t.same(answers, ['HTTP/1.1 429'], 'the first ask is answered 429, then the server closes the connection: the rest are never read');
  t.match(received, /\r\nconnection: close\r\n/i, 'the 429 says Connection: close');
  t.match(received, /\r\nretry-after: 30\r\n/i, 'with Retry-After');
  // The same address, meanwhile: the scorer's upload, a page load, a refused browser's error page.
  const refusedBrowser = await openLiveStream(base, '/match/loop-1/live', gym, 'text/html');
  t.equal(refusedBrowser.status, 429, "a browser's refused stream is answered with the error page...");
  t.equal(refusedBrowser.headers.connection, 'close', '...and its connection closed too');
  for (let i = 0; i < 70; i += 1) t.equal((await openLiveStream(base, '/match/loop-1/live', gym)).status, 429);
  const page = await openLiveStream(base, '/match/loop-1', gym, 'text/html');
  t.equal(page.status, 200, 'after 76 refusals the address still loads pages: nothing is shut out at accept');
  const upload = await new Promise<number>((resolve) => {
    const req = request(`${base}/api/matches/loop-1`, { method: 'PUT', localAddress: gym, headers: json, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end('{"score":[1,0]}');
  });
  t.equal(upload, 200, "and the scorer's upload is stored");
  t.same(
    held.map((s) => s.status),
    [200, 200],
    "the address's streams stay open",
  );
});

t.test('a share of 0 turns streams off, not the site: an address refused a few times is still served', async (t) => {
  const { app } = await startTestApp(t, { MAX_LIVE_STREAMS_PER_ADDRESS: '0' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"off-1"}' })).status, 201);
  const refused = [];
  for (let i = 0; i < 5; i += 1) refused.push((await openLiveStream(base, '/match/off-1/live', '127.0.0.10')).status);
  t.same(refused, [429, 429, 429, 429, 429]);
  const page = await openLiveStream(base, '/match/off-1', '127.0.0.10');
  t.equal(page.status, 200, 'the same address still loads the page');
  page.close();
});

t.test('behind a trusted proxy each client address has its own share, and every refusal is answered', async (t) => {
  const { app } = await startTestApp(t, { MAX_LIVE_STREAMS_PER_ADDRESS: '1', TRUST_PROXY: '127.0.0.1' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"proxied-1"}' })).status, 201);
  const held = await openLiveStream(base, '/match/proxied-1/live');
  t.teardown(() => held.close());
  const refused = [];
  for (let i = 0; i < 6; i += 1) refused.push((await openLiveStream(base, '/match/proxied-1/live')).status);
  t.same(refused, [429, 429, 429, 429, 429, 429], 'each refused by the cap of its client address, answered');
  t.equal((await fetch(`${base}/match/proxied-1`)).status, 200, 'the proxy is still served');
});

t.test('item 9: a live stream for an unknown id answers the JSON 404 with nosniff, never the id', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const id of ['no-such-match', '%3Cscript%3Ealert(1)%3C%2Fscript%3E']) {
    const res = await fetch(`${base}/match/${id}/live`, { headers: { accept: 'text/event-stream' } });
    t.equal(res.status, 404, id);
    t.match(res.headers.get('content-type'), /^application\/json/);
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const body = (await res.json()) as { message: string };
    t.match(body, { statusCode: 404, error: 'Not Found', message: /no match with this id/ });
    t.notOk(body.message.includes('no-such-match') || body.message.includes('script'), 'the id is not echoed');
  }
});

t.test('item 3: 16 slow uploads declaring 4 MiB each do not block another client (bytes count as they arrive)', async (t) => {
  // Defaults: MAX_BODY_BYTES 4 MiB, MAX_BYTES_IN_FLIGHT 64 MiB. Declared lengths alone would fill the budget.
  const { app } = await startTestApp(t, { REQUEST_TIMEOUT_MS: '60000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const slow = Array.from({ length: 16 }, (_, i) => slowUpload(base, { declared: 4 * 1024 * 1024, localAddress: `127.0.0.${10 + (i % 4)}` }));
  t.teardown(() => {
    for (const s of slow) s.close();
  });
  await wait(1200);
  const payload = fixtureText({ sport: 'volleyball', seed: 5, id: 'not-blocked' });
  const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: payload });
  t.equal(res.status, 201, 'another client uploads while 16 slow sockets trickle');
  const put = await fetch(`${base}/api/matches/not-blocked`, { method: 'PUT', headers: json, body: payload });
  t.ok(put.status >= 200 && put.status < 300, `and replaces (${put.status})`);
  t.same(
    slow.map((s) => s.response()),
    Array(16).fill(''),
    'the slow uploads are still waiting, not refused',
  );
});

t.test('item 3: one address holds at most its share (a quarter of the budget, at least one body); an overrun is refused mid-body, readably', async (t) => {
  // Share: max(400 kB, 2 MB / 4) = 500 kB.
  const { app } = await startTestApp(t, { MAX_BODY_BYTES: '400000', MAX_BYTES_IN_FLIGHT: '2000000', REQUEST_TIMEOUT_MS: '20000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const holder = slowUpload(base, { declared: 400_000, sent: 399_000, localAddress: '127.0.0.2' });
  t.teardown(() => holder.close());
  await wait(300);
  const big = JSON.stringify({ id: 'share', pad: 'x'.repeat(250_000) });
  const refused = slowUpload(base, { declared: Buffer.byteLength(big), sent: 0, localAddress: '127.0.0.2' });
  t.teardown(() => refused.close());
  await wait(300);
  t.equal(statusOf(refused.response()), 503, 'the same address: its declared length does not fit its share');
  t.match(refused.response(), /Retry-After: 2/i);
  t.match(refused.response(), /too many uploads at once \(MAX_BYTES_IN_FLIGHT\)/);
  const other = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: big });
  t.equal(other.status, 201, 'another address still has its own share');

  // Admitted while little had arrived, then overrunning the share as bytes come: 503 at that chunk, the rest discarded.
  const a = slowUpload(base, { declared: 300_000, sent: 10, localAddress: '127.0.0.3' });
  const b = slowUpload(base, { declared: 300_000, sent: 10, localAddress: '127.0.0.3' });
  t.teardown(() => {
    for (const s of [a, b]) s.close();
  });
  await wait(200);
  a.send(260_000);
  await wait(200);
  b.send(260_000);
  await wait(300);
  t.equal(statusOf(a.response()), 0, 'the first is still receiving');
  t.equal(statusOf(b.response()), 503, 'the one that overran the share is refused');
  b.send(29_000);
  await wait(300);
  t.equal(b.writeError(), null, 'its client can send the rest and read the answer (no broken pipe)');
});

t.test('item 3: a GET that declares a body reserves nothing', async (t) => {
  const { app } = await startTestApp(t, { MAX_BODY_BYTES: '400000', MAX_BYTES_IN_FLIGHT: '400000', REQUEST_TIMEOUT_MS: '20000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const gets = ['127.0.0.2', '127.0.0.3'].map((localAddress) =>
    slowUpload(base, { method: 'GET', path: '/api/matches/nothing', declared: 400_000, sent: 100_000, localAddress }),
  );
  t.teardown(() => {
    for (const g of gets) g.close();
  });
  await wait(300);
  const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'after-get', pad: 'x'.repeat(300_000) }) });
  t.equal(res.status, 201, 'the whole budget is still free for an upload');
});

t.test(
  'issue 57: idle keep-alive connections are free; an address busy with MAX_CONNECTIONS_PER_ADDRESS requests gets 503 with Retry-After, never a reset',
  async (t) => {
    const { app } = await startTestApp(t, { MAX_CONNECTIONS_PER_ADDRESS: '20', MAX_LIVE_STREAMS_PER_ADDRESS: '100' });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"busy-1"}' })).status, 201);
    const hall = '127.0.0.6';
    // 40 keep-alive connections from one address, each having loaded a page, now idle.
    const agent = new Agent({ keepAlive: true, maxSockets: 40, localAddress: hall });
    t.teardown(() => agent.destroy());
    const pageLoads = await Promise.all(Array.from({ length: 40 }, () => get(`${base}/match/busy-1`, agent)));
    t.same(new Set(pageLoads.map((r) => r.status)), new Set([200]), '40 page loads at once from one address, all served');
    t.equal(agent.freeSockets[Object.keys(agent.freeSockets)[0] ?? '']?.length, 40, '40 idle keep-alive connections held');
    const again = await Promise.all(Array.from({ length: 20 }, () => get(`${base}/healthz`, agent)));
    t.same(new Set(again.map((r) => r.status)), new Set([200]), 'and the idle ones serve their next requests');
    // 20 busy connections: live streams held.
    const streams = await Promise.all(Array.from({ length: 20 }, () => openLiveStream(base, '/match/busy-1/live', hall)));
    t.teardown(() => {
      for (const s of streams) s.close();
    });
    t.same(new Set(streams.map((s) => s.status)), new Set([200]), '20 streams held');
    const api = await get(`${base}/api/matches/busy-1`, agent);
    t.equal(api.status, 503, 'one more request from the address: 503');
    t.equal(api.headers['retry-after'], '5', 'with Retry-After');
    t.match(JSON.parse(api.body).message, /MAX_CONNECTIONS_PER_ADDRESS/, 'and a message naming the cap');
    const page = await get(`${base}/match/busy-1`, agent, { accept: 'text/html' });
    t.equal(page.status, 503);
    t.match(page.body, /<a [^>]*href="[^"]*"[^>]*>Reload/, "a browser gets the match's error page with a reload link");
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1] ?? '';
    t.equal((await get(`${base}${stylesheet}`, agent)).status, 200, 'and its stylesheet: assets are kept bytes, never counted');
    t.equal((await fetch(`${base}/match/busy-1`)).status, 200, 'another address is served');
    streams[0]?.close();
    await wait(100);
    t.equal((await get(`${base}/api/matches/busy-1`, agent)).status, 200, 'one stream closed: the address is served again');
  },
);

t.test('issue 57: near MAX_CONNECTIONS the longest idle keep-alive connections are closed, so new clients are served', async (t) => {
  const { app } = await startTestApp(t, { MAX_CONNECTIONS: '40' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: 36, localAddress: '127.0.0.7' });
  t.teardown(() => agent.destroy());
  const first = await Promise.all(Array.from({ length: 36 }, () => get(`${base}/healthz`, agent)));
  t.same(new Set(first.map((r) => r.status)), new Set([200]), '36 connections made requests and are now idle');
  const newcomers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(`${base}/healthz`, false, {}, `127.0.1.${i + 1}`)));
  t.same(
    newcomers.map((r) => r.status),
    Array(20).fill(200),
    '20 new clients, more than the connections left, are all served: idle ones were closed for them',
  );
  const reused = await Promise.all(Array.from({ length: 36 }, () => get(`${base}/healthz`, agent)));
  t.ok(
    reused.every((r) => r.status === 200 || r.status === 'ECONNRESET'),
    'the idle clients reconnect (a request raced with its connection closing may need a retry, as on any keep-alive close)',
  );
});

t.test(
  'issue 57: near MAX_CONNECTIONS an address holding more than an eighth of them has its new connections closed; one holding few still connects',
  async (t) => {
    const { app } = await startTestApp(t, { MAX_CONNECTIONS: '40' });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(base);
    // Connections that never send a request: nothing idle to reclaim.
    const open = (localAddress: string) =>
      new Promise<{ socket: Socket; closedEarly: boolean }>((resolve) => {
        const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
        socket.on('error', () => {});
        const timer = setTimeout(() => resolve({ socket, closedEarly: false }), 150);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve({ socket, closedEarly: true });
        });
      });
    const heavy: { socket: Socket; closedEarly: boolean }[] = [];
    for (let i = 0; i < 40; i += 1) heavy.push(await open('127.0.0.11'));
    t.teardown(() => {
      for (const { socket } of heavy) socket.destroy();
    });
    t.equal(heavy.filter((s) => !s.closedEarly).length, 37, 'one address holds 37: up to two short of the bound, nothing is refused');
    t.equal((await get(`${base}/healthz`, false, {}, '127.0.0.12')).status, 200, 'another address holding none is still served near the bound');
  },
);
