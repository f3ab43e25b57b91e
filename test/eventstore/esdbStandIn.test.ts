import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import {
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type AppendToStreamOptions,
  CancelledError,
  convertToCommandError,
  DeadlineExceededError,
  NotLeaderError,
  TimeoutError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import t from 'tap';
import type { EsdbClient, EsdbRead, EsdbServerSubscription } from '../../src/eventstore/esdbClient.js';
import { createEsdbEventStore, type EsdbEventStoreOptions } from '../../src/eventstore/esdbEventStore.js';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  type NewEvent,
  UnreadableEventError,
  WrongExpectedRevisionError,
} from '../../src/eventstore/eventStore.js';

/**
 * The EventStoreDB adapter against a stand-in for @eventstore/db-client: no EventStoreDB server
 * can be installed on these machines. The stand-in answers as client 6.2.1 does (read in its
 * source: node_modules/@eventstore/db-client/dist); what only a server shows is in
 * test/contract/esdb.test.ts, run when ESDB_URL names one.
 */
t.comment('no EventStoreDB server here: these tests use a stand-in client that answers as @eventstore/db-client 6.2.1 does');

const encoder = new TextEncoder();

/** An event as the client gives it from $all; `metadata` and `commit` may be made wrong on purpose. */
function serverEvent(streamId: string, revision: number, commit: bigint, metadata: unknown = { schemaVersion: 1 }): AllStreamResolvedEvent {
  const event: AllStreamRecordedEvent = {
    streamId,
    id: randomUUID(),
    revision: BigInt(revision),
    type: 'MatchCreated',
    isJson: false,
    data: encoder.encode(`{"n":${revision}}`),
    metadata: metadata as AllStreamRecordedEvent['metadata'],
    created: new Date(),
    position: { commit, prepare: commit },
  };
  return { event };
}

/** A server subscription: events are pushed in by the test, as the server would send them. */
class StandInSubscription extends EventEmitter implements EsdbServerSubscription {
  private readonly buffer: AllStreamResolvedEvent[] = [];
  unsubscribed = false;
  /** Client 6.2.1 rejects unsubscribe with the connection's failure when no node was found. */
  unsubscribeFailure: Error | null = null;
  /** How long ending the server call takes (a gRPC cancel over a slow link). */
  unsubscribeMs = 0;
  get readableLength() {
    return this.buffer.length;
  }
  read() {
    return this.buffer.shift() ?? null;
  }
  send(...events: AllStreamResolvedEvent[]) {
    this.buffer.push(...events);
    this.emit('readable');
  }
  async unsubscribe() {
    this.unsubscribed = true;
    if (this.unsubscribeMs > 0) await new Promise((resolve) => setTimeout(resolve, this.unsubscribeMs));
    if (this.unsubscribeFailure) throw this.unsubscribeFailure;
  }
}

/** A read that gives `items`, or never answers (`null`); `cancelled` says whether the adapter ended it. */
function standInRead<E>(items: E[] | null): EsdbRead<E> & { cancelled: boolean } {
  const stream = items === null ? new Readable({ objectMode: true, read() {} }) : Readable.from(items);
  return Object.assign(stream, {
    cancelled: false,
    async cancel() {
      this.cancelled = true;
    },
  });
}

interface AppendCall {
  streamName: string;
  ids: string[];
  options: AppendToStreamOptions;
}

function standInClient() {
  const subscriptions: StandInSubscription[] = [];
  const appends: AppendCall[] = [];
  /** Each append's answer in turn: a result, or an error to reject with. */
  const answers: (EsdbAppendResult | Error)[] = [];
  /** Every stream read asked for, and whether it asked for the leader. */
  const streamReadOptions: { streamName: string; requiresLeader: boolean }[] = [];
  const streamReads: (EsdbRead<AllStreamResolvedEvent> & { cancelled: boolean })[] = [];
  const client: EsdbClient = {
    async appendToStream(streamName, events, options) {
      appends.push({ streamName, ids: events.map((event) => event.id ?? ''), options });
      const answer = answers.shift();
      if (answer === undefined) throw new Error('the stand-in has no answer for this append');
      if (answer instanceof Error) throw answer;
      return answer;
    },
    readStream(streamName, options) {
      streamReadOptions.push({ streamName, requiresLeader: options.requiresLeader === true });
      // No match here has a key: its events are read as stored (in the clear).
      if (streamName.startsWith('matchkey-')) return standInRead<AllStreamResolvedEvent>([]);
      const read = streamReads.shift();
      if (read === undefined) throw new Error('the stand-in has no read for this stream');
      return read;
    },
    readAll: () => standInRead<AllStreamResolvedEvent>([]),
    tombstoneStream: async () => ({}),
    subscribeToAll() {
      const subscription = new StandInSubscription();
      subscriptions.push(subscription);
      return subscription;
    },
    dispose: async () => {},
  };
  return { client, subscriptions, appends, answers, streamReads, streamReadOptions };
}

function openStore(client: EsdbClient, options: EsdbEventStoreOptions = {}, deadlineMs = 10_000) {
  return createEsdbEventStore({ client, appendCredentials: { username: 'matchlog', password: 'pw' }, deadlineMs }, { appendRetryDelayMs: 1, ...options });
}

const newEvent = (): NewEvent => ({ id: randomUUID(), type: 'MatchCreated', data: '{}', metadata: { schemaVersion: 1 } });
const until = async (condition: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

t.test('item 3: an unreadable event ends the subscription with its stream and position, after the events before it are delivered', async (t) => {
  const drops: object[] = [];
  const stand = standInClient();
  const store = openStore(stand.client, { retryDelayMs: 5, logger: { info: () => {}, error: (obj) => void drops.push(obj) } });
  t.teardown(() => store.close());
  const iterator = store.subscribeToAll({ after: null })[Symbol.asyncIterator]();
  const first = iterator.next();
  await until(() => stand.subscriptions.length > 0);
  stand.subscriptions[0]?.send(
    serverEvent('match-a', 0, 100n),
    serverEvent('match-a', 1, 200n),
    serverEvent('match-b', 0, 300n, { requestId: 'written by other software' }),
    serverEvent('match-c', 0, 400n),
  );
  const delivered = await first;
  t.same(
    delivered.done ? [] : delivered.value.kind === 'events' ? delivered.value.events.map((e) => e.position) : [],
    [100, 200],
    'the good events before it first',
  );
  const error = await iterator.next().catch((e: unknown) => e);
  t.ok(error instanceof UnreadableEventError, 'then UnreadableEventError');
  if (error instanceof UnreadableEventError) {
    t.equal(error.streamId, 'match-b');
    t.equal(error.position, '300');
    t.match(error.message, /300 of stream match-b.*schemaVersion/);
  }
  t.same(await iterator.next(), { done: true, value: undefined }, 'and it has ended');
  t.equal(stand.subscriptions.length, 1, 'no resubscribing to meet it again');
  t.ok(stand.subscriptions[0]?.unsubscribed, 'the server subscription is ended');
  t.same(drops, [], 'not taken for a dropped connection');
});

t.test('item 3: a position beyond a JS number is named exactly, as the server gave it', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client);
  t.teardown(() => store.close());
  const iterator = store.subscribeToAll({ after: null })[Symbol.asyncIterator]();
  const first = iterator.next();
  await until(() => stand.subscriptions.length > 0);
  stand.subscriptions[0]?.send(serverEvent('match-a', 0, 2n ** 60n));
  const error = await first.catch((e: unknown) => e);
  t.ok(error instanceof UnreadableEventError, 'ends at once when it is the first');
  if (error instanceof UnreadableEventError) t.same([error.streamId, error.position], ['match-a', String(2n ** 60n)]);
});

t.test('item 5: a dropped server subscription waking late does not cut the backoff short', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client, { retryDelayMs: 60_000, logger: { info: () => {}, error: () => {} } });
  const iterator = store.subscribeToAll({ after: 5 })[Symbol.asyncIterator]();
  const pending = iterator.next();
  await until(() => stand.subscriptions.length > 0);
  const dropped = stand.subscriptions[0];
  dropped?.emit('error', new Error('connection reset'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  dropped?.send(serverEvent('match-a', 0, 100n));
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(stand.subscriptions.length, 1, 'still waiting out the backoff: the old subscription is not the one open');
  await store.close();
  t.same(await pending, { done: true, value: undefined }, 'close ends it at once');
});

t.test('item 5: a connection that never opened (no node discovered) is resubscribed, not ended by its unsubscribe', async (t) => {
  const drops: object[] = [];
  const stand = standInClient();
  const store = openStore(stand.client, { retryDelayMs: 5, maxRetryDelayMs: 5, logger: { info: () => {}, error: (obj) => void drops.push(obj) } });
  const iterator = store.subscribeToAll({ after: null })[Symbol.asyncIterator]();
  let settled: unknown = 'pending';
  const pending = iterator.next().then(
    (result) => (settled = result),
    (error: unknown) => (settled = error),
  );
  for (let i = 0; i < 3; i += 1) {
    await until(() => stand.subscriptions.length > i);
    const failed = stand.subscriptions[i];
    if (!failed) break;
    failed.unsubscribeFailure = new Error('Failed to discover after 10 attempts');
    failed.emit('error', failed.unsubscribeFailure);
  }
  await until(() => stand.subscriptions.length > 3);
  t.ok(stand.subscriptions.length > 3, 'resubscribed after each failure');
  t.ok(drops.length >= 3, 'each logged');
  t.equal(settled, 'pending', 'the reader still waits for events');
  await store.close();
  await pending;
  t.same(settled, { done: true, value: undefined });
});

t.test('item 4: an append without an answer is made again with the same ids, expected revision and deadline, a bounded number of times', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client, { appendAttempts: 3 }, 750);
  t.teardown(() => store.close());
  const events = [newEvent(), newEvent()];
  stand.answers.push(new DeadlineExceededError(), { success: true, nextExpectedRevision: 4n, position: { commit: 900n, prepare: 900n } });
  t.same(await store.appendToStream('club-r', events, 2), { nextExpectedRevision: 4, position: 900 }, 'the second attempt is answered');
  t.equal(stand.appends.length, 2);
  for (const call of stand.appends) {
    t.same(
      call.ids,
      events.map((e) => e.id),
      'same ids',
    );
    t.equal(call.options.expectedRevision, 2n, 'same expected revision');
    t.equal(call.options.deadline, 750, 'a deadline on every attempt (the URL defaultDeadline)');
    t.same(call.options.credentials, { username: 'matchlog', password: 'pw' }, 'credentials per call: the unary append');
  }

  stand.appends.length = 0;
  stand.answers.push(new DeadlineExceededError(), new DeadlineExceededError(), new DeadlineExceededError());
  const unknown = await store.appendToStream('club-r', events, 2).catch((e: unknown) => e);
  t.ok(unknown instanceof AppendOutcomeUnknownError, 'after the last attempt: the outcome is unknown, said so');
  t.equal(stand.appends.length, 3, 'three attempts in all');

  stand.appends.length = 0;
  stand.answers.push(new WrongExpectedVersionError(undefined, { streamName: 'club-r', current: 7n, expected: 2n }));
  await t.rejects(store.appendToStream('club-r', events, 2), WrongExpectedRevisionError, 'a conflict is an answer: not made again');
  t.equal(stand.appends.length, 1);
});

t.test("item 5: KurrentDB's per-event size refusal is AppendTooLargeError (413), not an unknown error (500)", async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client);
  t.teardown(() => store.close());
  // The server's trailers (RpcExceptions.MaxAppendEventSizeExceeded), through the client's own conversion.
  const trailers: Record<string, string> = {
    exception: 'maximum-append-event-size-exceeded',
    'maximum-append-event-size': '4096',
    'event-id': 'x',
    'proposed-append-event-size': '5000',
  };
  const metadata = { getMap: () => trailers, get: (key: string) => (key in trailers ? [trailers[key]] : []) };
  const details = 'Event with Id: x, Size: 5000, exceeds Maximum Append Event Size of 4096.';
  stand.answers.push(convertToCommandError(Object.assign(new Error(details), { code: 3, details, metadata })));
  const error = await store.appendToStream('club-big', [newEvent()], 'no_stream').catch((e: unknown) => e);
  t.ok(error instanceof AppendTooLargeError, 'AppendTooLargeError');
  if (error instanceof AppendTooLargeError) t.same([error.maxBytes, error.per], [4096, 'event']);
});

t.test('item 5: "no position" (2^64 − 1) is handled as such: an append answered with it reads the position back', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client);
  t.teardown(() => store.close());
  stand.answers.push({ success: true, nextExpectedRevision: 1n, position: { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n } });
  stand.streamReads.push(standInRead([serverEvent('club-p', 1, 1234n)]));
  t.same(await store.appendToStream('club-p', [newEvent()], 0), { nextExpectedRevision: 1, position: 1234 });

  stand.streamReads.push(standInRead([serverEvent('club-p', 0, 2n ** 64n - 1n)]));
  const error = await store.readStream('club-p').catch((e: unknown) => e);
  t.ok(error instanceof UnreadableEventError, 'an event read without a position (a server before 22.6) is named');
  if (error instanceof UnreadableEventError) t.match(error.message, /club-p.*no position.*22\.6/);
});

t.test('item 5: a read the server never answers fails after the deadline and is cancelled', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client, {}, 50);
  t.teardown(() => store.close());
  const stalled = standInRead<AllStreamResolvedEvent>(null);
  stand.streamReads.push(stalled);
  await t.rejects(store.readStream('match-s'), /read of match-s: no answer for 50 ms/);
  t.ok(stalled.cancelled, 'the server call is ended');
});

t.test('N7: close() while a dropped subscription is being ended ends the subscription at once, not after the backoff', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client, { retryDelayMs: 3000, logger: { info: () => {}, error: () => {} } });
  const iterator = store.subscribeToAll({ after: 5 })[Symbol.asyncIterator]();
  const pending = iterator.next();
  await until(() => stand.subscriptions.length > 0);
  const dropped = stand.subscriptions[0]!;
  dropped.unsubscribeMs = 100;
  dropped.emit('error', new Error('connection reset'));
  // The adapter is now ending the dropped server call, before its backoff.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const closing = Date.now();
  await store.close();
  t.same(await pending, { done: true, value: undefined }, 'the pending read ends');
  const tookMs = Date.now() - closing;
  t.ok(tookMs < 1000, `within a second of close(), not after the 3 s backoff (took ${tookMs} ms)`);
  t.equal(stand.subscriptions.length, 1, 'and it never resubscribed');
});

t.test('N8: a cancelled, aborted or unknown gRPC failure of an append is made again with the same ids, then its outcome is unknown', async (t) => {
  for (const failure of [() => new CancelledError(), () => new TimeoutError(), () => new UnknownError()]) {
    const stand = standInClient();
    const store = openStore(stand.client, { appendAttempts: 3 });
    t.teardown(() => store.close());
    const events = [newEvent()];
    stand.answers.push(failure(), { success: true, nextExpectedRevision: 3n, position: { commit: 700n, prepare: 700n } });
    t.same(
      await store.appendToStream('club-u', events, 2),
      { nextExpectedRevision: 3, position: 700 },
      `${failure().constructor.name}: answered on the second attempt`,
    );
    stand.answers.push(failure(), failure(), failure());
    const unknown = await store.appendToStream('club-u', events, 2).catch((e: unknown) => e);
    t.ok(unknown instanceof AppendOutcomeUnknownError, `${failure().constructor.name}: after the last attempt, outcome unknown (${String(unknown)})`);
    t.equal(stand.appends.length, 5, 'each attempt with the same ids');
  }
});

/** A follower's refusal, as client 6.2.1 makes it from the server's trailers. */
function notLeader(): Error {
  const trailers: Record<string, string> = { exception: 'not-leader', 'leader-endpoint-host': '127.0.0.1', 'leader-endpoint-port': '2113' };
  const metadata = { getMap: () => trailers, get: (key: string) => (key in trailers ? [trailers[key]] : []) };
  const refusal = convertToCommandError(Object.assign(new Error('not leader'), { code: 5, details: 'not leader', metadata }));
  if (!(refusal instanceof NotLeaderError)) throw new Error('the client no longer makes NotLeaderError of these trailers');
  return refusal;
}

t.test('N8: the position of an append answered without one is read from the leader, once more after a follower refuses', async (t) => {
  const stand = standInClient();
  const store = openStore(stand.client);
  t.teardown(() => store.close());
  stand.answers.push({ success: true, nextExpectedRevision: 1n, position: { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n } });
  const refused = Object.assign(standInRead<AllStreamResolvedEvent>([]), {
    [Symbol.asyncIterator]: async function* (): AsyncGenerator<AllStreamResolvedEvent> {
      yield* [];
      throw notLeader();
    },
  });
  stand.streamReads.push(refused, standInRead([serverEvent('club-p', 1, 1234n)]));
  t.same(await store.appendToStream('club-p', [newEvent()], 0), { nextExpectedRevision: 1, position: 1234 });
  t.same(
    stand.streamReadOptions.filter((read) => read.streamName === 'club-p'),
    [
      { streamName: 'club-p', requiresLeader: true },
      { streamName: 'club-p', requiresLeader: true },
    ],
    'both reads ask for the leader',
  );
});
