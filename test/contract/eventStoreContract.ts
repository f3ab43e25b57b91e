import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { type EventStore, type NewEvent, type RecordedEvent, WrongExpectedRevisionError } from '../../src/eventstore/eventStore.js';

/**
 * The behaviour every event-store adapter must have. Streams get unique names per run so
 * the suite also works against a long-lived server (EventStoreDB).
 */
export function eventStoreContract(t: Test, adapter: string, open: () => Promise<EventStore>) {
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
      t.same(read.map((e) => [e.revision, e.type, JSON.parse(e.data).n]), [[0, 'A', 1], [1, 'B', 2], [2, 'C', 3]]);
      t.same(read.map((e) => e.streamId), [s, s, s]);
      t.ok(read.every((e) => !Number.isNaN(Date.parse(e.recordedAt))), 'recordedAt is a time');
      t.same(read[0]?.metadata, { requestId: 'req-A', schemaVersion: 1 }, 'metadata round-trips');
      t.equal(first.position, read[0]?.position, "an append's position is its last event's");
      t.equal(second.position, read[2]?.position);
      t.ok((read[1]?.position ?? 0) > (read[0]?.position ?? 0) && (read[2]?.position ?? 0) > (read[1]?.position ?? 0), 'events of one append have positions of their own');
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

    t.test('streams read backwards, from a revision, and limited', async (t) => {
      const s = stream('paging');
      await store.appendToStream(s, ['A', 'B', 'C', 'D'].map((type) => event(type)), 'no_stream');
      t.same((await store.readStream(s, { direction: 'backwards' })).map((e) => e.type), ['D', 'C', 'B', 'A']);
      t.same((await store.readStream(s, { fromRevision: 2 })).map((e) => e.type), ['C', 'D']);
      t.same((await store.readStream(s, { maxCount: 2 })).map((e) => e.type), ['A', 'B']);
      t.same((await store.readStream(s, { direction: 'backwards', fromRevision: 1 })).map((e) => e.type), ['B', 'A']);
    });

    t.test('readAll gives every stream in global order after a position', async (t) => {
      const before = await store.headPosition();
      await store.appendToStream(stream('all-x'), [event('X1')], 'no_stream');
      await store.appendToStream(stream('all-y'), [event('Y1')], 'no_stream');
      await store.appendToStream(stream('all-x'), [event('X2')], 0);
      const after = ours(await store.readAll({ after: before, maxCount: 1000 }));
      t.same(after.map((e) => e.type), ['X1', 'Y1', 'X2']);
      const positions = after.map((e) => e.position);
      t.same(positions, [...positions].sort((a, b) => a - b), 'positions increase');
      const head = await store.headPosition();
      t.equal(head, positions.at(-1), 'head is the newest position');
      const first = after[0];
      t.ok(first);
      if (first) t.same(ours(await store.readAll({ after: first.position, maxCount: 1000 })).map((e) => e.type), ['Y1', 'X2'], 'after is exclusive');
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

    t.test('a subscription from a position starts right after it, batch by batch', async (t) => {
      const s = stream('resume');
      await store.appendToStream(s, ['R1', 'R2', 'R3', 'R4', 'R5'].map((type) => event(type)), 'no_stream');
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
