import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Test } from 'tap';
import { DomainError } from '../../src/domain/errors.js';
import {
  type AllSubscription,
  type EventStore,
  InvalidAppendError,
  type NewEvent,
  type RecordedEvent,
  type SubscriptionItem,
  WrongExpectedRevisionError,
} from '../../src/eventstore/eventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { documentsHolding, ERASURE_MARKER, erasureWriters, logSince, markedMatch, markedPayload, replayEveryProjection } from '../helpers/erasureWorld.js';
import { numRuns } from '../helpers/properties.js';

/**
 * Reads a subscription with time limits: `next(ms)` is the next item, or 'silent' when it
 * says nothing for `ms` (the item still pending then is the next one returned).
 */
function reader(subscription: AllSubscription) {
  const iterator = subscription[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<SubscriptionItem>> | null = null;
  async function next(ms: number): Promise<IteratorResult<SubscriptionItem> | 'silent'> {
    pending ??= iterator.next();
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<'silent'>((resolve) => {
      timer = setTimeout(() => resolve('silent'), ms);
    });
    try {
      const result = await Promise.race([pending, silence]);
      if (result !== 'silent') pending = null;
      return result;
    } finally {
      clearTimeout(timer);
    }
  }
  /** Items until the first caughtUp (included), or until `ms` pass. */
  async function untilCaughtUp(ms = 15_000): Promise<SubscriptionItem[]> {
    const items: SubscriptionItem[] = [];
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const result = await next(deadline - Date.now());
      if (result === 'silent' || result.done) break;
      items.push(result.value);
      if (result.value.kind === 'caughtUp') break;
    }
    return items;
  }
  return { next, untilCaughtUp };
}

const lastPosition = (items: SubscriptionItem[]) => items.flatMap((item) => (item.kind === 'events' ? item.events : [])).at(-1)?.position;

/**
 * The behaviour every event-store adapter must have. Streams get unique names per run so
 * the suite also works against a long-lived server (EventStoreDB). `openEmpty` opens a store
 * whose log (as its reads see it) holds nothing yet.
 */
/**
 * Where a store recognises repeated event ids: at the expected revision first used only
 * (EventStoreDB), or at any (SQLite, whose event ids are unique in the log).
 */
export type RepeatedIds = 'sameRevision' | 'anyRevision';

export function eventStoreContract(t: Test, adapter: string, open: () => Promise<EventStore>, openEmpty: () => Promise<EventStore>, repeatedIds: RepeatedIds) {
  const run = randomUUID().slice(0, 8);
  const stream = (name: string) => `contract${run}-${name}`;
  const event = (type: string, data: unknown = {}): NewEvent => ({
    id: randomUUID(),
    type,
    data: JSON.stringify(data),
    metadata: { requestId: `req-${type}`, schemaVersion: 1 },
  });
  const ours = (events: RecordedEvent[]) => events.filter((e) => e.streamId.startsWith(`contract${run}-`));

  t.test(`${adapter}: event store contract`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());

    t.test('a new stream starts at revision 0 and events keep their order', async (t) => {
      const s = stream('order');
      const first = await store.appendToStream(s, [event('A', { n: 1 })], 'no_stream');
      t.equal(first.nextExpectedRevision, 0);
      const second = await store.appendToStream(s, [event('B', { n: 2 }), event('C', { n: 3 })], 0);
      t.equal(second.nextExpectedRevision, 2);
      t.ok(second.position > first.position, 'global position grows');
      const read = await store.readStream(s);
      t.same(
        read.map((e) => [e.revision, e.type, JSON.parse(e.data).n]),
        [
          [0, 'A', 1],
          [1, 'B', 2],
          [2, 'C', 3],
        ],
      );
      t.same(
        read.map((e) => e.streamId),
        [s, s, s],
      );
      t.ok(
        read.every((e) => !Number.isNaN(Date.parse(e.recordedAt))),
        'recordedAt is a time',
      );
      t.same(read[0]?.metadata, { requestId: 'req-A', schemaVersion: 1 }, 'metadata round-trips');
      t.same(Object.keys(read[0]?.metadata ?? {}), ['requestId', 'schemaVersion'], 'absent fields stay absent');
      t.equal(first.position, read[0]?.position, "an append's position is its last event's");
      t.equal(second.position, read[2]?.position);
      t.ok(
        (read[1]?.position ?? 0) > (read[0]?.position ?? 0) && (read[2]?.position ?? 0) > (read[1]?.position ?? 0),
        'events of one append have positions of their own',
      );
    });

    t.test('data is stored byte for byte', async (t) => {
      const s = stream('bytes');
      const data = '{"b":  1,"a":[1, 2],"text":"Zoë \\u00e9 ⚽ <script>","nested":{"x":null}}';
      await store.appendToStream(s, [{ ...event('Raw'), data }], 'no_stream');
      t.equal((await store.readStream(s))[0]?.data, data);
    });

    t.test('a wrong expected revision is a conflict and writes nothing', async (t) => {
      const s = stream('conflict');
      await store.appendToStream(s, [event('A')], 'no_stream');
      await t.rejects(store.appendToStream(s, [event('B')], 'no_stream'), WrongExpectedRevisionError);
      await t.rejects(store.appendToStream(s, [event('B')], 5), WrongExpectedRevisionError);
      await t.rejects(store.appendToStream(stream('missing'), [event('B')], 0), WrongExpectedRevisionError);
      t.equal((await store.readStream(s)).length, 1);
      t.same(await store.readStream(stream('missing')), []);
    });

    t.test('"any" appends whatever the stream holds', async (t) => {
      const s = stream('any');
      await store.appendToStream(s, [event('A')], 'any');
      const result = await store.appendToStream(s, [event('B')], 'any');
      t.equal(result.nextExpectedRevision, 1);
    });

    t.test('of racing appends at the same revision exactly one wins', async (t) => {
      const s = stream('race');
      await store.appendToStream(s, [event('Start')], 'no_stream');
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.appendToStream(s, [event(`Racer${i}`)], 0)));
      t.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      t.ok(outcomes.filter((o) => o.status === 'rejected').every((o) => o.reason instanceof WrongExpectedRevisionError));
      t.equal((await store.readStream(s)).length, 2);
    });

    t.test('appending the same events again is an idempotent no-op', async (t) => {
      const s = stream('idempotent');
      const events = [event('A'), event('B')];
      const first = await store.appendToStream(s, events, 'no_stream');
      const again = await store.appendToStream(s, events, 'no_stream');
      t.same(again, first);
      t.equal((await store.readStream(s)).length, 2);
    });

    t.test('repeated ids with the expected revision first used: the first result, nothing written, even after the stream moved on', async (t) => {
      const s = stream('repeat-same');
      await store.appendToStream(s, [event('A')], 'no_stream');
      const events = [event('B'), event('C')];
      const first = await store.appendToStream(s, events, 0);
      await store.appendToStream(s, [event('D')], 2);
      t.same(await store.appendToStream(s, events, 0), first);
      t.same(
        (await store.readStream(s)).map((e) => e.type),
        ['A', 'B', 'C', 'D'],
      );
    });

    t.test(
      `repeated ids with another expected revision: ${repeatedIds === 'anyRevision' ? 'still the first result' : 'a conflict'}, nothing written`,
      async (t) => {
        const s = stream('repeat-other');
        await store.appendToStream(s, [event('A')], 'no_stream');
        const events = [event('B'), event('C')];
        const first = await store.appendToStream(s, events, 0);
        await store.appendToStream(s, [event('D')], 2);
        const again = store.appendToStream(s, events, 1);
        if (repeatedIds === 'anyRevision') t.same(await again, first);
        else await t.rejects(again, WrongExpectedRevisionError);
        t.same(
          (await store.readStream(s)).map((e) => e.type),
          ['A', 'B', 'C', 'D'],
        );
      },
    );

    t.test('a read from past the end of a stream sees what is appended after it, even after an append retried late', async (t) => {
      const s = stream('end');
      const first = [event('A'), event('B')];
      await store.appendToStream(s, first, 'no_stream');
      t.same(await store.readStream(s, { fromRevision: 2 }), [], 'nothing after the end yet');
      await store.appendToStream(s, [event('C')], 1);
      t.same(
        (await store.readStream(s, { fromRevision: 2 })).map((e) => e.type),
        ['C'],
        'the next append is seen',
      );
      await store.appendToStream(s, first, 'no_stream');
      t.same(
        (await store.readStream(s, { fromRevision: 2 })).map((e) => e.type),
        ['C'],
        'a late retry of the first append does not hide what followed it',
      );
      t.same(
        (await store.readStream(s, { fromRevision: 3 })).map((e) => e.type),
        [],
      );
    });

    t.test("appends made through another connection to the log are seen by this one's next read", async (t) => {
      const other = await open();
      t.teardown(() => other.close());
      const s = stream('two-connections');
      await store.appendToStream(s, [event('A')], 'no_stream');
      t.same(await store.readStream(s, { fromRevision: 1 }), [], 'this store knows where the stream ends');
      await other.appendToStream(s, [event('B')], 0);
      t.same(
        (await store.readStream(s, { fromRevision: 1 })).map((e) => e.type),
        ['B'],
        "the other connection's append is read",
      );
      t.same(
        (await other.readStream(s, { fromRevision: 1 })).map((e) => e.type),
        ['B'],
      );
    });

    t.test('streams read backwards, from a revision, and limited', async (t) => {
      const s = stream('paging');
      await store.appendToStream(
        s,
        ['A', 'B', 'C', 'D'].map((type) => event(type)),
        'no_stream',
      );
      t.same(
        (await store.readStream(s, { direction: 'backwards' })).map((e) => e.type),
        ['D', 'C', 'B', 'A'],
      );
      t.same(
        (await store.readStream(s, { fromRevision: 2 })).map((e) => e.type),
        ['C', 'D'],
      );
      t.same(
        (await store.readStream(s, { maxCount: 2 })).map((e) => e.type),
        ['A', 'B'],
      );
      t.same(
        (await store.readStream(s, { direction: 'backwards', fromRevision: 1 })).map((e) => e.type),
        ['B', 'A'],
      );
    });

    t.test('readAll gives every stream in global order after a position', async (t) => {
      const before = await store.headPosition();
      await store.appendToStream(stream('all-x'), [event('X1')], 'no_stream');
      await store.appendToStream(stream('all-y'), [event('Y1')], 'no_stream');
      await store.appendToStream(stream('all-x'), [event('X2')], 0);
      const after = ours(await store.readAll({ after: before, maxCount: 1000 }));
      t.same(
        after.map((e) => e.type),
        ['X1', 'Y1', 'X2'],
      );
      const positions = after.map((e) => e.position);
      t.same(
        positions,
        [...positions].sort((a, b) => a - b),
        'positions increase',
      );
      const head = await store.headPosition();
      t.equal(head, positions.at(-1), 'head is the newest position');
      const first = after[0];
      t.ok(first);
      if (first)
        t.same(
          ours(await store.readAll({ after: first.position, maxCount: 1000 })).map((e) => e.type),
          ['Y1', 'X2'],
          'after is exclusive',
        );
    });

    t.test('a subscription delivers the past, says it caught up, then delivers new events', async (t) => {
      const before = await store.headPosition();
      const s = stream('subscription');
      await store.appendToStream(s, [event('Old')], 'no_stream');
      const subscription = store.subscribeToAll({ after: before });
      const seen: string[] = [];
      let caughtUp = false;
      const iterator = subscription[Symbol.asyncIterator]();
      const deadline = Date.now() + 15_000;
      while (!seen.includes('New') && Date.now() < deadline) {
        const next = await iterator.next();
        if (next.done) break;
        const item = next.value;
        if (item.kind === 'caughtUp') {
          if (seen.includes('Old') && !caughtUp) {
            caughtUp = true;
            await store.appendToStream(s, [event('New')], 0);
          }
        } else {
          seen.push(...ours(item.events).map((e) => e.type));
        }
      }
      t.ok(caughtUp, 'caught up after the old event');
      t.same(seen, ['Old', 'New']);
      await subscription.close();
    });

    t.test('versions come back byte for byte from every read, whatever changed between them (random edits, across keyframes)', async () => {
      // Texts of 1-6 KB (stored as deltas) and sometimes under 1 KB (stored as given), with
      // multi-byte characters a byte delta may cut; small events between them, as club syncs are.
      const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 400 }), insert: fc.string({ unit: 'grapheme', maxLength: 300 }), small: fc.boolean() });
      const start = fc.string({ unit: 'grapheme', minLength: 1200, maxLength: 4000 });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(start, fc.array(edit, { minLength: 1, maxLength: 45 }), async (first, edits) => {
          const s = stream(`versions-${(run += 1)}`);
          // Edited by code points: the texts stay well-formed, as uploads are (decoded fatally).
          const texts = [first];
          for (const { at, remove, insert } of edits) {
            const previous = [...texts.at(-1)!];
            const cut = at % (previous.length + 1);
            texts.push(previous.slice(0, cut).join('') + insert + previous.slice(cut + remove).join(''));
          }
          const appended: string[] = [];
          for (const [i, text] of texts.entries()) {
            const events = [{ ...event('Version'), data: text }];
            if (edits[i - 1]?.small) events.push(event('Small', { i }));
            await store.appendToStream(s, events, appended.length === 0 ? 'no_stream' : appended.length - 1);
            appended.push(...events.map((e) => e.data));
          }
          const other = await open();
          try {
            for (const reader of [store, other]) {
              const forwards = await reader.readStream(s);
              if (forwards.some((e, i) => e.data !== appended[i]) || forwards.length !== appended.length) return false;
              const backwards = await reader.readStream(s, { direction: 'backwards' });
              if (backwards.some((e, i) => e.data !== appended[appended.length - 1 - i])) return false;
            }
            // One revision at a time, newest first, on a store that has cached nothing of them yet.
            const cold = await open();
            try {
              for (let revision = appended.length - 1; revision >= 0; revision -= 1) {
                const [read] = await cold.readStream(s, { direction: 'backwards', fromRevision: revision, maxCount: 1 });
                if (read?.data !== appended[revision]) return false;
              }
            } finally {
              await cold.close();
            }
          } finally {
            await other.close();
          }
          return true;
        }),
        { numRuns: numRuns(12) },
      );
    });

    t.test('a live match of 100 versions: every version, read whole, from a revision, through readAll and a subscription, is the one appended', async (t) => {
      const s = stream('live');
      const before = await store.headPosition();
      let text = JSON.stringify({
        sport: 'volleyball',
        sets: [{ home: 0, away: 0 }],
        players: Array.from({ length: 24 }, (_, i) => ({ id: `p${i}`, name: `Player ${i} Zoë`, stats: { points: 0 } })),
        actions: [] as unknown[],
      });
      const appended: string[] = [];
      for (let i = 0; i < 100; i += 1) {
        const match = JSON.parse(text) as { sets: { home: number; away: number }[]; players: { stats: { points: number } }[]; actions: unknown[] };
        match.sets[0]!.home = i;
        match.players[i % 24]!.stats.points += 1;
        match.actions.push({ seq: i, team: i % 2 ? 'home' : 'away', note: '⚽'.repeat(i % 5) });
        text = JSON.stringify(match);
        await store.appendToStream(s, [{ ...event('MatchReplaced'), data: text }, event('ClubSyncAccepted', { i })], i === 0 ? 'no_stream' : 2 * i - 1);
        appended.push(text, JSON.stringify({ i }));
      }
      t.same(
        (await store.readStream(s)).map((e) => e.data),
        appended,
        'the stream, forwards',
      );
      t.same(
        (await store.readStream(s, { fromRevision: 77, maxCount: 9 })).map((e) => e.data),
        appended.slice(77, 86),
        'from a revision deep in a chain',
      );
      t.same(
        (await store.readStream(s, { direction: 'backwards', fromRevision: 150, maxCount: 5 })).map((e) => e.data),
        appended.slice(146, 151).reverse(),
        'backwards',
      );
      const all: RecordedEvent[] = [];
      for (let after = before; ; ) {
        const page = await store.readAll({ after, maxCount: 7 });
        if (page.length === 0) break;
        all.push(...page.filter((e) => e.streamId === s));
        after = page.at(-1)!.position;
      }
      t.same(
        all.map((e) => e.data),
        appended,
        'readAll, in pages that cut the chains',
      );
      const subscription = store.subscribeToAll({ after: before, batchSize: 5 });
      const delivered: string[] = [];
      for await (const item of subscription) {
        if (item.kind === 'caughtUp') break;
        delivered.push(...item.events.filter((e) => e.streamId === s).map((e) => e.data));
      }
      await subscription.close();
      t.same(delivered, appended, 'a subscription from before the stream');
    });

    t.test('metadata with every field round-trips, in the same field order', async (t) => {
      const s = stream('metadata');
      const metadata = { schemaVersion: 2, clientAddressClass: 'private', requestId: 'req-full' };
      await store.appendToStream(s, [{ ...event('M'), metadata }], 'no_stream');
      const [read] = await store.readStream(s);
      t.same(read?.metadata, metadata);
      t.same(Object.keys(read?.metadata ?? {}), ['requestId', 'clientAddressClass', 'schemaVersion']);
    });

    t.test('an append breaking the envelope is refused whole with InvalidAppendError, and writes nothing', async (t) => {
      const s = stream('invalid');
      // Bad metadata as an untyped caller (JSON, another language) could send it: typed through a JSON round trip.
      const withMetadata = (metadata: string): NewEvent => ({ ...event('Bad'), metadata: JSON.parse(metadata) as NewEvent['metadata'] });
      const good = event('Good');
      const refused: [string, NewEvent[]][] = [
        ['no events', []],
        ['an id that is not a UUID', [{ ...event('Bad'), id: 'not-a-uuid' }]],
        ['an upper-case UUID', [{ ...event('Bad'), id: randomUUID().toUpperCase() }]],
        ['the same id twice', [good, good]],
        ['no schemaVersion', [withMetadata('{"requestId":"r"}')]],
        ['a schemaVersion that is a string', [withMetadata('{"schemaVersion":"1"}')]],
        ['a schemaVersion of 0', [withMetadata('{"schemaVersion":0}')]],
        ['a fractional schemaVersion', [withMetadata('{"schemaVersion":1.5}')]],
        ['a requestId that is not a string', [withMetadata('{"schemaVersion":1,"requestId":7}')]],
        ['a clientAddressClass of null', [withMetadata('{"schemaVersion":1,"clientAddressClass":null}')]],
        ['a field no store keeps', [withMetadata('{"schemaVersion":1,"userId":"u"}')]],
        ['metadata that is not an object', [withMetadata('[1]')]],
        ['a bad event after a good one', [event('Fine'), withMetadata('{}')]],
      ];
      for (const [problem, events] of refused) {
        const error = await store.appendToStream(s, events, 'any').catch((e: unknown) => e);
        t.ok(error instanceof InvalidAppendError, `${problem}: InvalidAppendError`);
        if (error instanceof InvalidAppendError) t.equal(error.streamId, s);
      }
      t.same(await store.readStream(s), [], 'nothing of any of them was written');
      const created = await store.appendToStream(s, [good], 'no_stream').catch((e: unknown) => e);
      t.notOk(created instanceof Error, 'the stream is still new');
    });

    t.test('caughtUp: said once each time the subscription reaches the head, with the last position delivered', async (t) => {
      const s = stream('caughtup');
      await store.appendToStream(s, [event('P1'), event('P2')], 'no_stream');
      const [p1] = await store.readStream(s, { maxCount: 1 });
      const subscription = store.subscribeToAll({ after: p1?.position ?? null });
      t.teardown(() => subscription.close());
      const read = reader(subscription);

      const past = await read.untilCaughtUp();
      t.same(
        ours(past.flatMap((item) => (item.kind === 'events' ? item.events : []))).map((e) => e.type),
        ['P2'],
        'the past, after the position',
      );
      const first = past.at(-1);
      t.same(first, { kind: 'caughtUp', position: lastPosition(past) }, 'then caughtUp at the last position delivered');

      // Idle: a store polls (SQLite) or probes the head (EventStoreDB); neither repeats the signal.
      const idle: SubscriptionItem[] = [];
      const quietUntil = Date.now() + 1500;
      for (let next = await read.next(1500); next !== 'silent' && !next.done && Date.now() < quietUntil; next = await read.next(quietUntil - Date.now()))
        idle.push(next.value);
      t.notOk(
        idle.some((item, i) => item.kind === 'caughtUp' && (i === 0 || idle[i - 1]?.kind === 'caughtUp')),
        'no caughtUp without new events since the last one',
      );

      await store.appendToStream(s, [event('P3')], 1);
      const live = await read.untilCaughtUp();
      t.same(
        ours(live.flatMap((item) => (item.kind === 'events' ? item.events : []))).map((e) => e.type),
        ['P3'],
        'a new event',
      );
      t.same(live.at(-1), { kind: 'caughtUp', position: lastPosition(live) }, 'and caughtUp again, at its position');
    });

    t.test('caughtUp comes first, at the position subscribed from, when nothing follows it', async (t) => {
      const head = await store.headPosition();
      const subscription = store.subscribeToAll({ after: head });
      t.teardown(() => subscription.close());
      const items = await reader(subscription).untilCaughtUp();
      const unrelated = items.filter((item) => item.kind === 'events' && ours(item.events).length === 0).length;
      // A long-lived server may take other runs' appends meanwhile; ours are none.
      t.same(items.at(-1), { kind: 'caughtUp', position: lastPosition(items) ?? head });
      t.equal(items.length - 1, unrelated, 'no event of this run before it');
    });

    t.test('on an empty log: headPosition and readAll say so, and a subscription from the start says caughtUp at null', async (t) => {
      const empty = await openEmpty();
      t.teardown(() => empty.close());
      t.equal(await empty.headPosition(), null);
      t.same(await empty.readAll({ after: null, maxCount: 10 }), []);
      const subscription = empty.subscribeToAll({ after: null });
      t.teardown(() => subscription.close());
      t.same(await reader(subscription).untilCaughtUp(), [{ kind: 'caughtUp', position: null }]);
    });

    t.test('a closed subscription ends: a pending next() resolves done, and nothing more is said', async (t) => {
      const subscription = store.subscribeToAll({ after: await store.headPosition() });
      const read = reader(subscription);
      t.equal((await read.untilCaughtUp()).at(-1)?.kind, 'caughtUp');
      t.equal(await read.next(100), 'silent', 'waiting for events');
      const started = Date.now();
      await subscription.close();
      t.same(await read.next(5000), { done: true, value: undefined }, 'the waiting next() ends');
      t.ok(Date.now() - started < 1000, 'at once, not after a poll or probe');
      t.same(await read.next(5000), { done: true, value: undefined }, 'and stays ended');
      await subscription.close();
      const never = store.subscribeToAll({ after: null });
      await never.close();
      t.same(await reader(never).next(5000), { done: true, value: undefined }, 'closed before it was read: ends without an item');
    });

    t.test('closing the store ends its subscriptions and refuses appends', async (t) => {
      const other = await open();
      const read = reader(other.subscribeToAll({ after: await other.headPosition() }));
      t.equal((await read.untilCaughtUp()).at(-1)?.kind, 'caughtUp');
      t.equal(await read.next(100), 'silent', 'waiting for events');
      await other.close();
      t.same(await read.next(5000), { done: true, value: undefined }, 'the subscription ended');
      await t.rejects(other.appendToStream(stream('after-close'), [event('Late')], 'no_stream'), 'appends are refused');
      await other.close();
    });

    t.test('a subscription from a position starts right after it, batch by batch', async (t) => {
      const s = stream('resume');
      await store.appendToStream(
        s,
        ['R1', 'R2', 'R3', 'R4', 'R5'].map((type) => event(type)),
        'no_stream',
      );
      const [r1] = await store.readStream(s, { maxCount: 1 });
      t.ok(r1);
      if (!r1) return;
      const subscription = store.subscribeToAll({ after: r1.position, batchSize: 2 });
      const seen: string[] = [];
      let largest = 0;
      for await (const item of subscription) {
        if (item.kind === 'caughtUp') break;
        largest = Math.max(largest, item.events.length);
        seen.push(...ours(item.events).map((e) => e.type));
      }
      await subscription.close();
      t.same(seen, ['R2', 'R3', 'R4', 'R5'], 'the event at the position itself is not repeated');
      t.ok(largest <= 2, 'batches respect batchSize');
    });
  });
}

/** A log for the erasure contract: processes over it, and (where the test can see them) the bytes it keeps. */
export interface ErasureLog {
  /** A new process over the same log: a store of its own, with nothing cached. */
  open(): Promise<EventStore>;
  /** Every byte the log keeps (its files, or the server's events); null where the test cannot see them (a real server). */
  storedBytes(): Promise<Buffer | null>;
}

/**
 * Erasure on the event store, through the service's own commands (issue 58): after `matchlog
 * erase`, the payload's marker is in nothing any process reads or the log keeps, every projection
 * replays past the erasure from the start of the log (as a rebuild or a new worker does), and a
 * new upload of the id is refused (410) by every process.
 */
export function eventStoreErasureContract(t: Test, adapter: string, openLog: () => Promise<ErasureLog>) {
  t.test(`${adapter}: erase: the marker leaves the log, every projection replays past the erasure, the id is refused (410) everywhere`, async (t) => {
    const log = await openLog();
    const [writer, other] = [await log.open(), await log.open()];
    t.teardown(() => Promise.all([writer.close(), other.close()]));
    const start = await writer.headPosition();
    const writers = erasureWriters(writer);
    const { club, matchId } = await markedMatch(writers, 'erase');
    const streamId = `match-${matchId}`;
    t.ok(
      (await other.readStream(streamId)).some((event) => event.data.includes(ERASURE_MARKER)),
      'another process has read the match',
    );
    const erased = await writers.erase(matchId);

    const fresh = await log.open();
    t.teardown(() => fresh.close());
    for (const [name, store] of [
      ['the erasing process', writer],
      ['another process', other],
      ['a new process', fresh],
    ] as const) {
      const read = [...(await store.readStream(streamId)), ...(await logSince(store, start).readAll({ after: null, maxCount: 100_000 }))];
      t.notOk(
        read.some((event) => event.data.includes(ERASURE_MARKER)),
        `${name}: the marker is in no event read`,
      );
      const record = (await store.readStream(streamId)).at(-1);
      t.same([record?.type, record?.erased], ['MatchErased', undefined], `${name}: the record of the erasure reads as written`);
      const again = await erasureWriters(store)
        .upload(matchId, markedPayload(club.clubId, club.teamId, matchId, 9), club.key)
        .catch((error: unknown) => error);
      t.ok(again instanceof DomainError && again.code === 'gone', `${name}: a new upload of the id is refused (410)`);
    }
    t.equal((await fresh.readStream(streamId)).at(-1)?.revision, erased.revision, 'nothing was appended after the erasure');
    const bytes = await log.storedBytes();
    if (bytes === null) t.comment(`${adapter}: the bytes a real server keeps cannot be read here; only what it answers is checked`);
    else t.notOk(bytes.includes(ERASURE_MARKER), 'the marker is in no byte the log keeps');

    const dir = mkdtempSync(join(tmpdir(), 'matchlog-erasure-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const readModel = openSqliteReadModel(join(dir, 'readmodel.sqlite'));
    t.teardown(() => readModel.close());
    const reached = await replayEveryProjection(logSince(fresh, start), readModel);
    t.same(
      [...reached].filter(([, position]) => (position ?? -1) < erased.position).map(([name]) => name),
      [],
      'every projection replays from the start past the erasure',
    );
    t.same(await documentsHolding(readModel, ERASURE_MARKER), [], 'and no document holds the marker');
  });
}
