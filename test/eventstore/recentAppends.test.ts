import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { EventStore, RecordedEvent } from '../../src/eventstore/eventStore.js';
import { createRecentAppends } from '../../src/eventstore/recentAppends.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { tempDataDir } from '../helpers/testApp.js';

const at = (position: number, data = '{}'): RecordedEvent => ({
  id: randomUUID(),
  streamId: 'match-a',
  revision: position,
  position,
  type: 'MatchReplaced',
  data,
  metadata: { schemaVersion: 1 },
  recordedAt: '2026-11-23T00:00:00.000Z',
});
const positions = (events: RecordedEvent[] | null) => events?.map((event) => event.position) ?? null;

t.test('serves only an unbroken run of positions right after the reader', async (t) => {
  const recent = createRecentAppends(8);
  recent.add([at(3), at(4)]);
  recent.add([at(6)]);
  t.same(positions(recent.after(2, 1)), [3], 'at most maxCount');
  t.same(positions(recent.after(2, 10)), [3, 4], 'stops before the gap at 5 (an event held by another process)');
  t.equal(recent.after(4, 10), null, 'position 5 is not held here');
  t.same(positions(recent.after(5, 10)), [6]);
  t.equal(recent.after(6, 10), null, 'nothing after the newest');
  t.equal(recent.after(null, 10), null, 'a reader from the start reads the file');
  recent.clear();
  t.equal(recent.after(5, 10), null);
});

t.test('lets events go once read past, and keeps at most its capacity in characters of data', async (t) => {
  const recent = createRecentAppends(6);
  recent.add([at(1), at(2), at(3)]);
  t.same(positions(recent.after(1, 10)), [2, 3]);
  t.equal(recent.after(0, 10), null, 'a reader behind the one that asked after 1 reads the file');
  recent.add([at(4), at(5), at(6)]);
  t.equal(recent.after(2, 10), null, 'the oldest fall out beyond the capacity');
  t.same(positions(recent.after(3, 10)), [4, 5, 6]);
});

t.test('a payload and its small sync outcome are held by their size, not as two of a few', async (t) => {
  const payload = 'x'.repeat(100);
  const recent = createRecentAppends(250);
  recent.add([at(1, payload), at(2), at(3, payload), at(4)]);
  t.same(positions(recent.after(0, 10)), [1, 2, 3, 4], 'two uploads with their outcomes: 204 characters');
  recent.add([at(5, payload), at(6)]);
  t.equal(recent.after(0, 10), null, 'read past, then let go');
  t.same(positions(recent.after(4, 10)), [5, 6]);
  recent.add([at(7, 'y'.repeat(300))]);
  t.same(positions(recent.after(6, 10)), [7], 'the newest commit is held whatever its size');
  recent.add([at(8, payload), at(9, payload), at(10, payload)]);
  t.equal(recent.after(6, 10), null, 'until the next commit: then the oldest go first...');
  t.same(positions(recent.after(8, 10)), [9, 10], '...until the rest fit');
  recent.add([at(11, 'z'.repeat(200)), at(12, 'z'.repeat(200))]);
  t.same(positions(recent.after(10, 10)), [11, 12], 'a newest commit over the capacity is held whole');
});

const newEvent = (label: string) => ({ id: randomUUID(), type: 'Noted', data: JSON.stringify({ label }), metadata: { requestId: label, schemaVersion: 1 } });

async function take(store: EventStore, after: number | null, count: number): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribeToAll({ after, batchSize: 3 });
  for await (const item of subscription) {
    if (item.kind === 'events') seen.push(...item.events);
    if (seen.length >= count) break;
  }
  await subscription.close();
  return seen;
}

/** Two handles on one log file, as two processes would have: `here` is the one that subscribes. */
function twoHandles(t: Test) {
  const file = join(tempDataDir(t), 'events.sqlite');
  const here = openSqliteEventStore(file, { pollIntervalMs: 20 });
  const there = openSqliteEventStore(file, { pollIntervalMs: 20 });
  t.teardown(async () => {
    await here.close();
    await there.close();
  });
  return { here, there };
}

t.test("a subscription gets this process's events and another process's, in log order, as the file has them", async (t) => {
  const { here, there } = twoHandles(t);
  await here.appendToStream('note-1', [newEvent('a')], 'no_stream');
  const from = await here.headPosition();
  // Interleaved: the other handle's events sit between this one's, which this one never held.
  await here.appendToStream('note-1', [newEvent('b'), newEvent('c')], 0);
  await there.appendToStream('note-2', [newEvent('d')], 'no_stream');
  await here.appendToStream('note-1', [newEvent('e')], 2);
  await Promise.all([here.appendToStream('note-3', [newEvent('f')], 'no_stream'), here.appendToStream('note-4', [newEvent('g')], 'no_stream')]);
  await t.rejects(here.appendToStream('note-1', [newEvent('refused')], 0), 'a refused append is not delivered');
  const seen = await take(here, from, 6);
  t.same(
    seen.map((event) => JSON.parse(event.data).label),
    ['b', 'c', 'd', 'e', 'f', 'g'],
  );
  t.same(seen, await here.readAll({ after: from, maxCount: 100 }), 'each event exactly as a read from the file gives it');
});

t.test("a subscription caught up with this process's commits still gets what another process appends next", async (t) => {
  const { here, there } = twoHandles(t);
  await here.appendToStream('note-1', [newEvent('a')], 'no_stream');
  const subscription = here.subscribeToAll({ after: null, batchSize: 3 });
  const seen: string[] = [];
  let caughtUp = 0;
  for await (const item of subscription) {
    if (item.kind === 'events') seen.push(...item.events.map((event) => JSON.parse(event.data).label));
    if (item.kind !== 'caughtUp') continue;
    caughtUp += 1;
    // Caught up with everything this process holds: what another process appends next is only in the file.
    if (caughtUp === 1) await there.appendToStream('note-2', [newEvent('b')], 'no_stream');
    if (caughtUp === 2) await here.appendToStream('note-1', [newEvent('c')], 0);
    if (caughtUp === 3) break;
  }
  await subscription.close();
  t.same(seen, ['a', 'b', 'c'], "the other process's event is read from the file, then this one's own");
});
