import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { json, startTestApp, tempDataDir } from '../helpers/testApp.js';

/** One request on its own connection; resolves with the answer, or with the error the client saw (EPIPE, ECONNRESET). */
function send(
  base: string,
  options: { method: string; path: string; headers: Record<string, string>; body: Buffer },
): Promise<{ status: number; headers: Record<string, unknown>; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(`${base}${options.path}`, { method: options.method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(options.body);
  });
}

t.test('TRUST_PROXY=true is one hop: limits count the address the proxy saw, not what the client wrote to the left', async (t) => {
  const { app } = await startTestApp(t, { WRITE_RATE_LIMIT: '3/minute', TRUST_PROXY: 'true' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // The proxy (here 127.0.0.1) appends the address it saw; the client chose everything before it.
  const write = (forwardedFor: string) =>
    fetch(`${base}/api/matches/proxied`, { method: 'PUT', headers: { ...json, 'x-forwarded-for': forwardedFor }, body: '{}' }).then((r) => r.status);
  const statuses: number[] = [];
  for (let i = 1; i <= 10; i += 1) statuses.push(await write(`198.51.100.${i}, 203.0.113.7`));
  t.same(statuses, [200, 200, 200, 429, 429, 429, 429, 429, 429, 429], 'a new forged address each time: still one client, 3 writes a minute');
  t.equal(await write('198.51.100.1, 203.0.113.8'), 200, 'another client of the proxy has its own count');

  const twoHops = await startTestApp(t, { WRITE_RATE_LIMIT: '1/minute', TRUST_PROXY: '2' });
  const twoBase = await twoHops.app.listen({ host: '127.0.0.1', port: 0 });
  const writeTwo = (forwardedFor: string) =>
    fetch(`${twoBase}/api/matches/proxied`, { method: 'PUT', headers: { ...json, 'x-forwarded-for': forwardedFor }, body: '{}' }).then((r) => r.status);
  t.same(
    [await writeTwo('1.1.1.1, 203.0.113.9, 10.0.0.2'), await writeTwo('2.2.2.2, 203.0.113.9, 10.0.0.2')],
    [200, 429],
    'TRUST_PROXY=2: the address the outer of two proxies saw',
  );
});

t.test('refusals reach Connection: close clients as answers, not broken pipes', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const body = Buffer.alloc(6 * 1024 * 1024, 0x20);
  const outcomes: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const answer = await send(base, {
      method: 'PUT',
      path: '/api/matches/big',
      headers: { ...json, connection: 'close', 'content-length': String(body.length) },
      body,
    });
    outcomes.push('error' in answer ? answer.error : String(answer.status));
  }
  t.same(outcomes, Array(20).fill('413'), 'every 6 MB upload read its 413 (MAX_BODY_BYTES 4 MiB)');
  const refused = await send(base, { method: 'PUT', path: '/api/matches/big', headers: { ...json, connection: 'close' }, body });
  t.match(refused, { status: 413, headers: { connection: 'close' } }, 'and the connection closes after it, as asked');
});

t.test('a compressed body is refused with 415 before it is read, let alone inflated', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // 64 MiB of zeros in ~64 KB: inflated, it would pass MAX_BODY_BYTES and be blamed on its size.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  for (const encoding of ['gzip', 'deflate', 'br', 'x-unknown']) {
    const answer = await send(base, { method: 'POST', path: '/api/matches', headers: { ...json, 'content-encoding': encoding }, body: bomb });
    t.match(answer, { status: 415, headers: { 'x-content-type-options': 'nosniff' } }, encoding);
    if ('text' in answer)
      t.match(JSON.parse(answer.text), { statusCode: 415, message: new RegExp(`Content-Encoding "${encoding}" is not accepted; send the JSON uncompressed`) });
  }

  // The answer comes while the declared body has not been sent at all: nothing of it was waited for.
  const port = Number(new URL(base).port);
  const early = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('PUT /api/matches/bomb HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 1000000\r\n\r\n');
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
  t.match(early, /^HTTP\/1\.1 415 /);
  t.equal((await fetch(`${base}/api/matches/bomb`)).status, 404, 'nothing was stored');
  t.equal(
    (await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'content-encoding': 'identity' }, body: '{"id":"plain"}' })).status,
    201,
    'identity is no encoding',
  );
});

t.test('the store is its owner’s alone: DATA_DIR 0700, its files 0600, looser files from before narrowed', async (t) => {
  // With no umask to lean on, only the modes the store asks for count.
  const umask = process.umask(0);
  t.teardown(() => process.umask(umask));
  const dataDir = join(tempDataDir(t), 'data');
  const first = await startTestApp(t, { DATA_DIR: dataDir });
  const base = await first.app.listen({ host: '127.0.0.1', port: 0 });
  t.equal(
    (await fetch(`${base}/api/matches`, { method: 'POST', headers: { ...json, 'x-write-token': 'a-write-token-of-the-owner' }, body: '{"id":"kept"}' })).status,
    201,
  );
  const modes = () => Object.fromEntries(readdirSync(dataDir).map((name) => [name, (statSync(join(dataDir, name)).mode & 0o777).toString(8)]));
  t.equal((statSync(dataDir).mode & 0o777).toString(8), '700');
  t.ok(existsSync(join(dataDir, 'events.sqlite-wal')) && existsSync(join(dataDir, 'readmodel.sqlite-shm')), 'the WAL files are there');
  t.same(new Set(Object.values(modes())), new Set(['600']), JSON.stringify(modes()));
  t.ok(['write-token.key', 'events.sqlite', 'events.sqlite-wal', 'events.sqlite-shm', 'readmodel.sqlite'].every((name) => name in modes()));
  await first.close();

  for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
  const second = await startTestApp(t, { DATA_DIR: dataDir });
  const again = await second.app.listen({ host: '127.0.0.1', port: 0 });
  t.equal((await fetch(`${again}/api/matches/kept`)).status, 200, 'the same store, opened again');
  t.same(new Set(Object.values(modes())), new Set(['600']), `narrowed at start: ${JSON.stringify(modes())}`);
});

t.test('every JSON error answer carries X-Content-Type-Options: nosniff, an unknown route’s too', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const answers = [
    await fetch(`${base}/no/such/route`),
    await fetch(`${base}/api/matches`, { method: 'DELETE' }),
    await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{' }),
    await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
  ];
  t.same(
    answers.map((r) => [r.status, r.headers.get('content-type')?.split(';')[0], r.headers.get('x-content-type-options')]),
    [
      [404, 'application/json', 'nosniff'],
      [405, 'application/json', 'nosniff'],
      [400, 'application/json', 'nosniff'],
      [415, 'application/json', 'nosniff'],
    ],
  );
});
