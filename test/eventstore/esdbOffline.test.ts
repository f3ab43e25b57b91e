import { randomUUID } from 'node:crypto';
import { ServerFeaturesClient } from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import { StreamsClient } from '@eventstore/db-client/generated/streams_grpc_pb.js';
import t from 'tap';
import { openEsdbEventStore } from '../../src/eventstore/esdbEventStore.js';
import { AppendOutcomeUnknownError, AppendTooLargeError, InvalidAppendError } from '../../src/eventstore/eventStore.js';

/**
 * What the EventStoreDB adapter decides before it talks to a server, so it holds without one:
 * nothing listens on port 1, and none of these reach the network.
 */
const secret = 's3cr3t-pa55';

t.test('an append above the configured MaxAppendSize is refused before it is sent', async (t) => {
  const store = openEsdbEventStore(`esdb://admin:${secret}@127.0.0.1:1?tls=false`, { maxAppendBytes: 64 * 1024 });
  t.teardown(() => store.close());
  // 66 KiB of UTF-8 in 33 Ki characters; one event: a second like it would be stored as a small delta.
  const data = JSON.stringify({ text: 'é'.repeat(33 * 1024) });
  const event = (type: string) => ({ id: randomUUID(), type, data, metadata: { requestId: 'r', schemaVersion: 1 } });
  const error = await store.appendToStream('match-big', [event('MatchCreated')], 'no_stream').catch((e: unknown) => e);
  t.ok(error instanceof AppendTooLargeError, 'AppendTooLargeError');
  if (error instanceof AppendTooLargeError) {
    t.ok(error.bytes > 64 * 1024, `counted in UTF-8 bytes plus metadata and type (${error.bytes})`);
    t.equal(error.maxBytes, 64 * 1024);
  }
});

t.test('connection strings are checked without ever repeating the password', async (t) => {
  const bad: [string, RegExp][] = [
    [`esdb://admin:${secret}@127.0.0.1:2113?tls=false&tlsVerifyCert=false`, /tlsVerifyCert=false is not supported/],
    [`esdb://admin:${secret}@127.0.0.1:2113?tls=false&unknownOption=1`, /unknown option "unknownOption"/],
    [`esdb://admin:${secret}@127.0.0.1:2113?throwOnAppendFailure=false`, /throwOnAppendFailure=false/],
    [`esdb://admin:${secret}@127.0.0.1:notaport?tls=false`, /not a valid EventStoreDB connection string/],
    ['esdb://127.0.0.1:2113?tls=true', /with TLS must carry user:password/],
    [`esdb://admin:${secret}@127.0.0.1:2113?tls=false&defaultDeadline=0`, /defaultDeadline must be a positive/],
  ];
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
  t.teardown(() => {
    console.warn = warn;
  });
  for (const [url, problem] of bad) {
    const error = (() => {
      try {
        openEsdbEventStore(url);
        return null;
      } catch (e) {
        return e;
      }
    })();
    t.ok(error instanceof Error, `refused: ${problem}`);
    if (error instanceof Error) {
      t.match(error.message, problem);
      t.notMatch(error.message, secret, 'no password in the message');
    }
  }
  t.same(warnings, [], 'and nothing printed by the client');
});

t.test('a subscription the server refuses is retried from its position with doubling backoff, and ends at once on close', async (t) => {
  const drops: { position?: unknown; retryInMs?: unknown }[] = [];
  const logger = { info: () => {}, error: (obj: { position?: unknown; retryInMs?: unknown }) => void drops.push(obj) };
  const store = openEsdbEventStore('esdb://127.0.0.1:1?tls=false', { retryDelayMs: 20, maxRetryDelayMs: 80, logger });
  const subscription = store.subscribeToAll({ after: 1234 });
  const pending = subscription[Symbol.asyncIterator]().next();
  const deadline = Date.now() + 10_000;
  while (drops.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(
    drops.slice(0, 4).map((drop) => drop.retryInMs),
    [20, 40, 80, 80],
    'each drop logged with the wait before the next try',
  );
  t.ok(
    drops.every((drop) => drop.position === 1234),
    'from the position subscribed after',
  );
  const started = Date.now();
  await store.close();
  t.same(await pending, { done: true, value: undefined }, 'closing the store ends the waiting reader');
  t.ok(Date.now() - started < 1000, 'without waiting out a backoff');
});

t.test('an append breaking the envelope is refused before anything is sent, as by every store', async (t) => {
  const store = openEsdbEventStore('esdb://127.0.0.1:1?tls=false');
  t.teardown(() => store.close());
  await t.rejects(store.appendToStream('match-x', [], 'no_stream'), InvalidAppendError);
  await t.rejects(store.appendToStream('match-x', [{ id: 'e-1', type: 'X', data: '{}', metadata: { schemaVersion: 1 } }], 'no_stream'), InvalidAppendError);
});

t.test("appends take the client's unary Append with a deadline, never its process-wide batch append, and are retried when unanswered", async (t) => {
  // Spies on the client's own gRPC stubs (they still call through): no server listens on port 1.
  const unary = t.capture(StreamsClient.prototype, 'append', StreamsClient.prototype.append);
  const batch = t.capture(StreamsClient.prototype, 'batchAppend', StreamsClient.prototype.batchAppend);
  const features = t.capture(ServerFeaturesClient.prototype, 'getSupportedMethods', ServerFeaturesClient.prototype.getSupportedMethods);
  const store = openEsdbEventStore('esdb://127.0.0.1:1?tls=false&defaultDeadline=300', { appendAttempts: 3, appendRetryDelayMs: 1 });
  t.teardown(() => store.close());
  const event = { id: randomUUID(), type: 'MatchCreated', data: '{}', metadata: { schemaVersion: 1 } };
  const error = await store.appendToStream('match-unary', [event], 'no_stream').catch((e: unknown) => e);
  t.ok(error instanceof AppendOutcomeUnknownError, `no answer, said so: ${String(error)}`);
  const calls = unary.args();
  t.equal(calls.length, 3, 'the unary Append, three attempts');
  t.ok(
    calls.every((args) => args.some((arg) => typeof arg === 'object' && arg !== null && 'deadline' in arg && arg.deadline instanceof Date)),
    'each with a deadline',
  );
  t.equal(batch.args().length, 0, 'never the batch append');
  t.equal(features.args().length, 0, 'not even the server-features call that chooses it');
});

t.test('a subscription over several hosts (gossip) that finds no node resubscribes instead of ending', async (t) => {
  const drops: unknown[] = [];
  const logger = { info: () => {}, error: (obj: unknown) => void drops.push(obj) };
  const store = openEsdbEventStore('esdb://127.0.0.1:1,127.0.0.1:2?tls=false&maxDiscoverAttempts=1&discoveryInterval=10&gossipTimeout=100', {
    retryDelayMs: 10,
    maxRetryDelayMs: 20,
    logger,
  });
  let settled: unknown = 'pending';
  const pending = store
    .subscribeToAll({ after: null })
    [Symbol.asyncIterator]()
    .next()
    .then(
      (result) => (settled = result),
      (error: unknown) => (settled = error),
    );
  const deadline = Date.now() + 10_000;
  while (drops.length < 3 && settled === 'pending' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(settled, 'pending', 'the reader still waits');
  t.ok(drops.length >= 3, `each failed discovery logged and retried (${drops.length})`);
  await store.close();
  await pending;
  t.same(settled, { done: true, value: undefined });
});
