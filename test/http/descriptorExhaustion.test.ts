import t from 'tap';
import { openLiveStream, type LiveAttempt } from '../helpers/liveStreams.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

// Issue 33, item 2: idle live viewers used to exhaust file descriptors and end the process
// (EMFILE thrown by the load sampler). Real server processes under a low `ulimit -n`.

/** Opens `total` live streams in waves of `wave`, spread over `addresses` source addresses; accepted ones are held. */
async function attemptStreams(url: string, { total, wave, addresses }: { total: number; wave: number; addresses: string[] }) {
  const held: LiveAttempt[] = [];
  const outcomes = new Map<string, number>();
  for (let started = 0; started < total; started += wave) {
    const attempts = await Promise.all(
      Array.from({ length: Math.min(wave, total - started) }, (_, i) => openLiveStream(url, '/match/fd-1/live', addresses[(started + i) % addresses.length])),
    );
    for (const attempt of attempts) {
      outcomes.set(String(attempt.status), (outcomes.get(String(attempt.status)) ?? 0) + 1);
      if (attempt.status === 200) held.push(attempt);
    }
  }
  return { held, outcomes };
}

const addresses = Array.from({ length: 25 }, (_, i) => `127.0.0.${20 + i}`);

async function createMatch(url: string) {
  const res = await fetch(`${url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"fd-1"}' });
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
}

t.test('under ulimit -n 4096 the server survives 25,000 attempted live streams: the caps refuse, /healthz answers', async (t) => {
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), WRITE_RATE_LIMIT: 'off' }, undefined, [], { openFiles: 4096 });
  t.teardown(() => void server.child.kill('SIGKILL'));
  await waitUntilReady(server.url);
  await createMatch(server.url);
  const { held, outcomes } = await attemptStreams(server.url, { total: 25_000, wave: 2500, addresses });
  t.teardown(() => {
    for (const stream of held) stream.close();
  });
  t.comment(`outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  // Defaults under 4096 descriptors: 3,584 connections, 3,225 streams, 1,500 per address.
  t.equal(held.length, 3225, 'streams held up to MAX_LIVE_STREAMS (derived from the open-files limit)');
  t.ok((outcomes.get('503') ?? 0) > 0, 'the rest were refused in all (503 with Retry-After)...');
  t.ok((outcomes.get('ECONNRESET') ?? 0) > 0, '...or closed as accepted, beyond MAX_CONNECTIONS');
  t.equal(
    held.length + (outcomes.get('503') ?? 0) + (outcomes.get('429') ?? 0) + (outcomes.get('ECONNRESET') ?? 0),
    25_000,
    'and nothing else happened to any attempt',
  );
  t.equal(server.child.exitCode, null, 'the process is alive');
  const health = await fetch(`${server.url}/healthz`);
  t.equal(health.status, 200, '/healthz answers while the streams are held');
  t.equal((await fetch(`${server.url}/match/fd-1`)).status, 200, 'and so does a page');
});

// libuv answers EMFILE on accept itself (it closes the pending connections with a spare descriptor),
// so Node seldom reports it; what used to end the process was the load sampler's EMFILE.
t.test('out of descriptors (caps set above ulimit -n 1024): accepts fail with EMFILE, the process sheds them and lives', async (t) => {
  const server = await startServerProcess(
    { DATA_DIR: tempDataDir(t), WRITE_RATE_LIMIT: 'off', MAX_CONNECTIONS: '100000', MAX_LIVE_STREAMS: '100000', MAX_LIVE_STREAMS_PER_ADDRESS: '100000' },
    undefined,
    [],
    { openFiles: 1024 },
  );
  t.teardown(() => void server.child.kill('SIGKILL'));
  await waitUntilReady(server.url);
  await createMatch(server.url);
  const { held, outcomes } = await attemptStreams(server.url, { total: 3000, wave: 1500, addresses: addresses.slice(0, 5) });
  t.comment(`outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  t.ok(held.length < 1024, `${held.length} streams held, the rest refused at accept`);
  // The sampler that used to throw EMFILE samples once a second: give it a few turns with every descriptor taken.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  t.equal(server.child.exitCode, null, 'the process is alive with every descriptor taken');
  for (const stream of held) stream.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal((await fetch(`${server.url}/healthz`)).status, 200, '/healthz answers once descriptors are free again');
  t.ok(
    server.output.some((line) => line.includes('MAX_CONNECTIONS is more than the open-files limit')),
    'a warning at start said the caps do not fit',
  );
});

t.test('item 2 as found: 1,100 streams from one address under ulimit -n 1024 and the default caps; the process lives and serves others', async (t) => {
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), WRITE_RATE_LIMIT: 'off' }, undefined, [], { openFiles: 1024 });
  t.teardown(() => void server.child.kill('SIGKILL'));
  await waitUntilReady(server.url);
  await createMatch(server.url);
  const { held, outcomes } = await attemptStreams(server.url, { total: 1100, wave: 1100, addresses: ['127.0.0.60'] });
  t.teardown(() => {
    for (const stream of held) stream.close();
  });
  t.comment(`outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  // Defaults under 1024 descriptors: 896 connections, 806 streams, half of them (403) per address.
  t.equal(held.length, 403, 'MAX_LIVE_STREAMS_PER_ADDRESS (half of MAX_LIVE_STREAMS under this limit) streams held');
  t.ok((outcomes.get('429') ?? 0) > 0, 'the rest refused with 429...');
  t.equal(
    held.length + (outcomes.get('429') ?? 0) + (outcomes.get('ECONNRESET') ?? 0),
    1100,
    '...or closed as accepted while past MAX_CONNECTIONS (the global bound on descriptors), nothing else',
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal(server.child.exitCode, null, 'the process is alive');
  t.equal((await fetch(`${server.url}/healthz`)).status, 200, '/healthz answers');
  const other = await openLiveStream(server.url, '/match/fd-1/live', '127.0.0.61');
  t.equal(other.status, 200, 'another address gets its stream');
  other.close();
  const sameAddressPage = await openLiveStream(server.url, '/match/fd-1', '127.0.0.60', 'text/html');
  t.equal(sameAddressPage.status, 200, 'and the streaming address still loads its pages: nothing shuts it out');
});
