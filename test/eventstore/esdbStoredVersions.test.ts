import { randomUUID } from 'node:crypto';
import { StreamDeletedError } from '@eventstore/db-client';
import t from 'tap';
import type { EsdbClient } from '../../src/eventstore/esdbClient.js';
import { createEsdbEventStore, type EsdbEventStoreOptions } from '../../src/eventstore/esdbEventStore.js';
import { AppendOutcomeUnknownError, ERASED_DATA, type EventStore, type NewEvent, type RecordedEvent } from '../../src/eventstore/eventStore.js';
import { open, sealContext } from '../../src/eventstore/payloadCipher.js';
import { esdbMemoryServer } from '../helpers/esdbMemoryServer.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { liveVersion } from '../helpers/liveVersions.js';

/**
 * Versions stored as deltas and sealed per match on EventStoreDB, against the in-memory
 * stand-in server (test/helpers/esdbMemoryServer.ts): no EventStoreDB server can run here.
 */
t.comment(
  'no EventStoreDB server here: these tests use an in-memory stand-in for @eventstore/db-client 6.2.1; the ESDB contract suite runs only with ESDB_URL',
);

const MARKER = 'Zoë-Marker-7f3a';
const K = 4;

/** Version `revision` of a live match whose payload names a child (the marker), with its own ids. */
function version(revision: number, marker = MARKER): NewEvent {
  const live = liveVersion(revision);
  return { ...live, id: randomUUID(), data: live.data.replace('"payload":{', `"payload":{"player":"${marker}",`) };
}
/** A club sync outcome: ids and a reason code, never the payload; stored in the clear (src/eventstore/esdbSealing.ts). */
const syncOutcome = (): NewEvent => ({
  id: randomUUID(),
  type: 'ClubSyncSkipped',
  data: '{"schemaVersion":1,"reason":"missing_key"}',
  metadata: { schemaVersion: 1 },
});
const isVersion = (event: { type: string }) => event.type !== 'ClubSyncSkipped';

function openStore(client: EsdbClient, options: EsdbEventStoreOptions = {}): EventStore {
  return createEsdbEventStore(
    { client, appendCredentials: { username: 'matchlog', password: 'pw' }, deadlineMs: 5000 },
    { appendRetryDelayMs: 1, deltas: { keyframeInterval: K, cacheBytes: 8 * 1024 * 1024 }, ...options },
  );
}

/** Appends versions 0..n-1 of a match one by one, a sync outcome with every fifth, as the write path does. */
async function liveMatch(store: EventStore, streamId: string, n: number, marker = MARKER): Promise<NewEvent[]> {
  const appended: NewEvent[] = [];
  for (let revision = 0; revision < n; revision += 1) {
    const events = revision % 5 === 3 ? [version(revision, marker), syncOutcome()] : [version(revision, marker)];
    await store.appendToStream(streamId, events, appended.length === 0 ? 'no_stream' : appended.length - 1);
    appended.push(...events);
  }
  return appended;
}

const storedForm = (server: ReturnType<typeof esdbMemoryServer>, streamId: string) =>
  server
    .stored(streamId)
    .map(
      (event) =>
        (JSON.parse(Buffer.from(event.metadata).toString('utf8')) as { stored?: { encoding?: string; base?: number; cipher?: string; clear?: string } })
          .stored ?? {},
    );

async function subscriptionEvents(store: EventStore, after: number | null): Promise<RecordedEvent[]> {
  const subscription = store.subscribeToAll({ after, batchSize: 7 });
  const events: RecordedEvent[] = [];
  for await (const item of subscription) {
    if (item.kind === 'events') events.push(...item.events);
    else break;
  }
  await subscription.close();
  return events;
}

t.test('every version of a live match comes back byte for byte from every read: stream, one revision, $all, a subscription', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client);
  t.teardown(() => store.close());
  const appended = await liveMatch(store, 'match-live', 23);
  const other = await liveMatch(store, 'match-other', 6, 'Other-Child');

  const forms = storedForm(server, 'match-live');
  t.ok(
    forms.every((form, i) => (isVersion(appended[i]!) ? form.cipher === 'aes-256-gcm' : form.cipher === undefined && form.clear === 'outlives key')),
    'every version of a match is sealed; its club sync outcomes are in the clear, marked so',
  );
  const versionForms = forms.filter((_, i) => appended[i]!.type !== 'ClubSyncSkipped');
  t.equal(versionForms[0]?.encoding, undefined, 'the first version is a keyframe stored as given');
  t.ok(
    versionForms.slice(1).every((form) => form.encoding === 'delta' || form.encoding === 'deflate'),
    'later ones are deltas or deflated keyframes',
  );
  t.ok(versionForms.filter((form) => form.encoding === 'deflate').length >= 4, `a keyframe at least every ${K} versions`);
  const depths = new Map<number, number>();
  forms.forEach((form, revision) => {
    if (appended[revision]!.type === 'ClubSyncSkipped') return;
    depths.set(revision, form.encoding === 'delta' ? (depths.get(form.base ?? -1) ?? Number.NaN) + 1 : 0);
  });
  t.ok(
    [...depths.values()].every((depth) => depth >= 0 && depth <= K - 1),
    `each delta names an earlier version as its base, at most ${K - 1} deltas from a keyframe`,
  );

  const expected = (events: RecordedEvent[], source: NewEvent[]) =>
    events.length === source.length && events.every((event, i) => event.data === source[i]!.data && event.id === source[i]!.id && event.erased === undefined);
  t.ok(expected(await store.readStream('match-live'), appended), 'the stream read forwards');
  t.ok(expected((await store.readStream('match-live', { direction: 'backwards' })).reverse(), appended), 'and backwards');

  // A store without any cache: each revision alone is rebuilt from its keyframe.
  const fresh = openStore(server.client, { deltas: { keyframeInterval: K, cacheBytes: 0 } });
  t.teardown(() => fresh.close());
  for (let revision = 0; revision < appended.length; revision += 1) {
    const [one] = await fresh.readStream('match-live', { fromRevision: revision, maxCount: 1 });
    if (one?.data !== appended[revision]!.data) t.fail(`revision ${revision} read alone`);
  }
  t.pass('every revision read alone by a store with no cache');

  const all = await fresh.readAll({ after: null, maxCount: 1000 });
  const byStream = (events: RecordedEvent[], streamId: string) => events.filter((event) => event.streamId === streamId);
  t.ok(expected(byStream(all, 'match-live'), appended) && expected(byStream(all, 'match-other'), other), '$all, two matches interleaved');
  const subscribed = await subscriptionEvents(openStore(server.client, { deltas: { keyframeInterval: K, cacheBytes: 0 } }), null);
  t.ok(expected(byStream(subscribed, 'match-live'), appended), 'a subscription from the start');
});

t.test('a subscription starting mid-chain rebuilds the first delta it meets from the log, back to its keyframe', async (t) => {
  const server = esdbMemoryServer();
  const writer = openStore(server.client);
  t.teardown(() => writer.close());
  const appended = await liveMatch(writer, 'match-mid', 11);
  const forms = storedForm(server, 'match-mid');
  const stored = await writer.readStream('match-mid');
  // Start after a delta whose successor is a delta too: its base is not among the events delivered.
  const start = forms.findIndex((form, i) => i > 0 && form.encoding === 'delta' && forms[i + 1]?.encoding === 'delta');
  t.ok(start > 0, `revision ${start + 1} is a delta on revision ${start}`);
  const reader = openStore(server.client, { deltas: { keyframeInterval: K, cacheBytes: 0 } });
  t.teardown(() => reader.close());
  const events = await subscriptionEvents(reader, stored[start]!.position);
  t.same(
    events.map((event) => event.revision),
    appended.slice(start + 1).map((_, i) => start + 1 + i),
    'the events after it',
  );
  t.ok(
    events.every((event) => event.data === appended[event.revision]!.data),
    'each byte for byte',
  );
});

t.test("the next version is stored against the cached one only at the expected revision: after another writer's append it is read back", async (t) => {
  const server = esdbMemoryServer();
  const first = openStore(server.client);
  const second = openStore(server.client);
  t.teardown(() => Promise.all([first.close(), second.close()]));
  const appended = await liveMatch(first, 'match-two', 6);
  for (let revision = 6; revision < 12; revision += 1) {
    const writer = revision % 2 === 0 ? second : first;
    const event = version(revision);
    await writer.appendToStream('match-two', [event], appended.length - 1);
    appended.push(event);
  }
  const reader = openStore(server.client, { deltas: { keyframeInterval: K, cacheBytes: 0 } });
  t.teardown(() => reader.close());
  const read = await reader.readStream('match-two');
  t.ok(
    read.length === appended.length && read.every((event, i) => event.data === appended[i]!.data),
    'every version byte for byte, whichever process wrote it',
  );
  t.ok(
    storedForm(server, 'match-two')
      .slice(7)
      .some((form) => form.encoding === 'delta'),
    'and the writers still stored deltas',
  );
});

t.test('a retry after an ambiguous failure is recognised and stores the same bytes: within the append and from another process', async (t) => {
  const server = esdbMemoryServer();
  const proposed: Uint8Array[][] = [];
  const spied: EsdbClient = {
    ...server.client,
    appendToStream(name, events, options) {
      if (name.startsWith('match-')) proposed.push(events.map((event) => Uint8Array.from(event.data)));
      return server.client.appendToStream(name, events, options);
    },
  };
  const store = openStore(spied, { appendAttempts: 2 });
  t.teardown(() => store.close());
  const appended = await liveMatch(store, 'match-retry', 5);

  proposed.length = 0;
  server.loseNextAnswers(1);
  const next = version(5);
  const at = appended.length - 1;
  const result = await store.appendToStream('match-retry', [next], at);
  t.same(
    result,
    { nextExpectedRevision: at + 1, position: Number(server.stored('match-retry')[at + 1]!.commit) },
    'stored once, the second attempt answered as a repeat',
  );
  t.equal(server.stored('match-retry').length, at + 2);
  t.same(proposed[1], proposed[0], 'the same bytes both times');
  appended.push(next);

  // Every attempt's answer lost: the caller is told, and retries later from another process.
  proposed.length = 0;
  server.loseNextAnswers(2);
  const last = version(6);
  await t.rejects(store.appendToStream('match-retry', [last], at + 1), AppendOutcomeUnknownError);
  const another = openStore(spied);
  t.teardown(() => another.close());
  await another.appendToStream('match-retry', [last], at + 1);
  t.equal(server.stored('match-retry').length, at + 3, 'the retry from another process is recognised as a repeat');
  t.same(proposed[2], proposed[0], 'with the same bytes: same base (read back), same delta, same seal');
  t.equal(Buffer.from(server.stored('match-retry').at(-1)!.data).compare(Buffer.from(proposed[2]![0]!)), 0, 'which are the bytes stored');
  appended.push(last);
  const read = await another.readStream('match-retry');
  t.ok(
    read.every((event, i) => event.data === appended[i]!.data),
    'and every version reads back',
  );
});

t.test('match data is sealed at rest: the marker is nowhere in what the server stores, and the key is in its own stream', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client);
  t.teardown(() => store.close());
  await liveMatch(store, 'match-secret', 8);
  await store.appendToStream(
    'club-c1',
    [{ id: randomUUID(), type: 'ClubCreated', data: '{"schemaVersion":1,"name":"Club"}', metadata: { schemaVersion: 1 } }],
    'no_stream',
  );
  t.notOk(server.storedBytes().includes(MARKER), 'no byte of the marker in any data or metadata');
  t.equal(server.stored('matchkey-secret').length, 1, 'one key event in matchkey-secret');
  t.equal(server.stored('matchkey-secret')[0]?.data.byteLength, 32, 'of 32 bytes');
  t.equal(Buffer.from(server.stored('club-c1')[0]!.data).toString(), '{"schemaVersion":1,"name":"Club"}', 'club streams are not sealed');
  t.ok(
    (await store.readAll({ after: null, maxCount: 100 })).every((event) => !event.streamId.startsWith('matchkey-')),
    'key streams are never among the service events',
  );
});

t.test('erasing a match makes every version unreadable for good, in every read and process; other matches are untouched', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client);
  const bystander = openStore(server.client);
  t.teardown(() => Promise.all([store.close(), bystander.close()]));
  const erased = await liveMatch(store, 'match-erased', 9);
  const kept = await liveMatch(store, 'match-kept', 7, 'Kept-Child');
  t.equal((await bystander.readStream('match-erased'))[8]?.data, erased[8]!.data, 'another process has read the match (and holds its key)');

  await store.erasePayloads('match-erased', [0]);
  await store.erasePayloads('match-erased', [0]);
  t.pass('erasing twice is the same as once');
  const record: NewEvent = { id: randomUUID(), type: 'MatchErased', data: '{"schemaVersion":1,"reason":"a parent asked"}', metadata: { schemaVersion: 1 } };
  await store.appendToStream('match-erased', [record], erased.length - 1);

  // Versions erased, their envelopes kept; club sync outcomes (in the clear) read as written, as on SQLite.
  const isErased = (events: RecordedEvent[]) =>
    events.length === erased.length &&
    events.every((event, i) =>
      isVersion(event)
        ? event.erased === true && event.data === ERASED_DATA && event.id === erased[i]!.id && event.type === erased[i]!.type && event.revision === i
        : event.erased === undefined && event.data === erased[i]!.data,
    );
  const read = await store.readStream('match-erased');
  t.ok(isErased(read.slice(0, -1)), 'every version before the erasure: erased, its envelope kept; sync outcomes kept');
  t.same([read.at(-1)?.data, read.at(-1)?.erased], [record.data, undefined], 'the record of the erasure, appended after it, reads as stored');

  const fresh = openStore(server.client, { deltas: { keyframeInterval: K, cacheBytes: 0 } });
  t.teardown(() => fresh.close());
  const all = await fresh.readAll({ after: null, maxCount: 1000 });
  t.ok(isErased(all.filter((event) => event.streamId === 'match-erased').slice(0, -1)), '$all in a new process: erased');
  const kepts = all.filter((event) => event.streamId === 'match-kept');
  t.ok(kepts.length === kept.length && kepts.every((event, i) => event.data === kept[i]!.data), 'the other match, byte for byte');

  const subscribed = await subscriptionEvents(fresh, null);
  t.ok(isErased(subscribed.filter((event) => event.streamId === 'match-erased').slice(0, -1)), 'a subscription: erased');
  // The other process held the key: its subscription meets the record of the erasure and lets the key go.
  const seen = await subscriptionEvents(bystander, null);
  t.equal(seen.filter((event) => event.streamId === 'match-erased').at(-1)?.data, record.data, 'the bystander met the record');
  t.ok(isErased((await bystander.readStream('match-erased')).slice(0, -1)), 'from then on it reads the match erased');

  const keyRead = await collect(server.client.readStream('matchkey-erased', { direction: 'forwards', fromRevision: 'start' })).catch((e: unknown) => e);
  t.ok(keyRead instanceof StreamDeletedError, 'the key stream is tombstoned');
  const sealed = server
    .stored('match-erased')
    .slice(0, -1)
    .filter(isVersion)
    .map((event) => Buffer.from(event.data));
  t.ok(server.storedBytes().includes(sealed[0]!), 'the sealed bytes stay (EventStoreDB events are immutable)...');
  server.scavenge();
  t.equal(server.stored('matchkey-erased').length, 0, '...and after a scavenge the key is gone from the log');
  t.notOk(server.storedBytes().includes(MARKER), 'the marker was never stored in the clear');
  const keysLeft = server.keyStreams().map((name) => Buffer.from(server.stored(name)[0]!.data));
  const opens = server
    .stored('match-erased')
    .slice(0, -1)
    .filter(isVersion)
    .filter((event) =>
      keysLeft.some((key) => {
        try {
          open(key, sealContext('match-erased', event.id), Buffer.from(event.data));
          return true;
        } catch {
          return false;
        }
      }),
    );
  t.same(opens, [], `no key left on the server (${keysLeft.length}) opens any of its events`);
  t.ok(isErased((await openStore(server.client).readStream('match-erased')).slice(0, -1)), 'after the scavenge, still erased');
  await t.rejects(store.erasePayloads('club-c1', [0]), /only match streams/, 'only match streams can be erased');
});

t.test('a live-scored match takes at most twice its final payload on EventStoreDB, sealed, data and metadata counted', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client, { deltas: { keyframeInterval: 32, cacheBytes: 32 * 1024 * 1024 } });
  t.teardown(() => store.close());
  const uploads = liveMatchUploads();
  for (const [revision, payload] of uploads.entries()) {
    const data = `{"schemaVersion":1,"matchId":"day","payload":${payload}}`;
    await store.appendToStream(
      'match-day',
      [{ id: randomUUID(), type: revision === 0 ? 'MatchCreated' : 'MatchReplaced', data, metadata: { schemaVersion: 1, requestId: randomUUID() } }],
      revision === 0 ? 'no_stream' : revision - 1,
    );
  }
  const stored = server.stored('match-day').reduce((sum, event) => sum + event.data.byteLength + event.metadata.byteLength, 0);
  const whole = uploads.reduce((sum, payload) => sum + Buffer.byteLength(payload), 0);
  const final = Buffer.byteLength(uploads.at(-1)!);
  t.comment(
    `${uploads.length} uploads: ${whole} bytes whole (${(whole / final).toFixed(1)}×), ` +
      `stored ${stored} bytes with metadata (${(stored / final).toFixed(2)}× the final ${final}-byte payload)`,
  );
  t.ok(stored <= 2 * final, 'at most twice the final payload');
  const read = await openStore(server.client).readStream('match-day');
  t.ok(
    read.every((event, i) => event.data.endsWith(`"payload":${uploads[i]!}}`)),
    'and every upload reads back whole',
  );
});

t.test('another process sees an erasure without its record once its key is read again (keyRecheckMs)', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client);
  const other = openStore(server.client, { keyRecheckMs: 0 });
  t.teardown(() => Promise.all([store.close(), other.close()]));
  const erased = await liveMatch(store, 'match-quiet', 4);
  t.equal((await other.readStream('match-quiet'))[3]?.data, erased[3]!.data);
  await store.erasePayloads('match-quiet', [0]);
  t.ok((await other.readStream('match-quiet')).filter(isVersion).every((event) => event.erased === true));
});

async function collect<E>(read: AsyncIterable<E>): Promise<E[]> {
  const items: E[] = [];
  for await (const item of read) items.push(item);
  return items;
}
