import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createStateCache, createStreamQueue, DEFAULT_RETRY, handleCommand, retryDelay } from '../../src/commands/commandHandler.js';
import { matchDecider } from '../../src/commands/matchCommands.js';
import { DomainError } from '../../src/domain/errors.js';
import { asJsonText, withPayload } from '../../src/domain/jsonText.js';
import type { MatchState, UploadMatch } from '../../src/domain/match.js';
import type { EventStore } from '../../src/eventstore/eventStore.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { tempDataDir } from '../helpers/testApp.js';

const meta = { requestId: 'test', schemaVersion: 1 };
const upload = (payload: string, writeTokenHash: string | null = null, via: 'POST' | 'PUT' = 'POST'): UploadMatch => ({
  type: 'UploadMatch',
  via,
  matchId: 'm',
  payload: asJsonText(payload),
  payloadSalt: Buffer.alloc(16, 2).toString('base64'),
  writeToken: writeTokenHash === null ? null : { hash: writeTokenHash, wellFormed: true, longEnoughToErase: true },
});

/** The real SQLite store, counting the events each readStream hands back. */
function countingStore(store: EventStore) {
  const reads: number[] = [];
  const counted: EventStore = {
    ...store,
    async readStream(streamId, options) {
      const events = await store.readStream(streamId, options);
      reads.push(events.length);
      return events;
    },
  };
  return { counted, reads };
}

/** A real SQLite event store in the test's own folder, closed when the test ends. */
function storeFor(t: Test) {
  const store = openSqliteEventStore(join(tempDataDir(t), 'events.sqlite'));
  t.teardown(() => store.close());
  return store;
}

t.test('with a state cache, a re-uploaded match reads only the events it has not seen', async (t) => {
  const store = storeFor(t);
  const { counted, reads } = countingStore(store);
  const cache = createStateCache<MatchState>();
  for (let v = 0; v < 30; v += 1) await handleCommand(counted, 'match-m', matchDecider, upload(`{"v":${v}}`, 'h'), meta, { cache });
  t.equal(reads.length, 29, 'the first upload, a create, does not read the stream');
  t.ok(
    reads.every((n) => n === 0),
    'later uploads read nothing: the cache knows what they appended',
  );
  t.equal((await store.readStream('match-m')).length, 30);
});

t.test('a cached state is caught up with what other writers appended', async (t) => {
  const store = storeFor(t);
  const cache = createStateCache<MatchState>();
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}', 'h1'), meta, { cache });
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":2}', 'h1', 'PUT'), meta); // another process: no cache
  const result = await handleCommand(store, 'match-m', matchDecider, upload('{"v":3}', 'h1'), meta, { cache });
  t.equal(result.append?.nextExpectedRevision, 2, 'appended after the other writer, not over it');
  await t.rejects(handleCommand(store, 'match-m', matchDecider, upload('{"v":4}', 'h2'), meta, { cache }), DomainError, 'protection still applies');
});

t.test('a stream the cache does not hold is first decided as new, and read only when it exists after all', async (t) => {
  const store = storeFor(t);
  const { counted, reads } = countingStore(store);
  const sleeps: number[] = [];
  const retry = { ...DEFAULT_RETRY, sleep: async (ms: number) => void sleeps.push(ms) };
  const created = await handleCommand(counted, 'match-m', matchDecider, upload('{"v":1}', 'h1'), meta, { cache: createStateCache<MatchState>(), retry });
  t.same(
    created.events.map((e) => e.type),
    ['MatchCreated'],
  );
  t.equal(reads.length, 0, 'a create reads nothing');

  // Another process (its own cache) finds the match stored: the guess is refused by the log, then
  // the command is decided on what is stored, at once, without the wait meant for other writers.
  const other = () => ({ cache: createStateCache<MatchState>(), retry });
  await t.rejects(handleCommand(counted, 'match-m', matchDecider, upload('{"v":2}', 'h2'), meta, other()), DomainError, 'the stored protection applies');
  const replaced = await handleCommand(counted, 'match-m', matchDecider, upload('{"v":2}', 'h1'), meta, other());
  t.same(
    replaced.events.map((e) => e.type),
    ['MatchReplaced'],
  );
  t.equal(replaced.append?.nextExpectedRevision, 1);
  const repeated = await handleCommand(counted, 'match-m', matchDecider, upload('{"v":2}', 'h1'), meta, other());
  t.equal(repeated.append, null, 'an upload that repeats the stored version stores nothing');
  t.same(repeated.head, replaced.head);
  t.same(sleeps, [], 'no wait');
  t.same(
    (await store.readStream('match-m')).map((e) => e.type),
    ['MatchCreated', 'MatchReplaced'],
  );
});

t.test('a command refused on a new stream is decided again on the stored one', async (t) => {
  const store = storeFor(t);
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}'), meta); // unprotected
  // An ill-formed token is refused where it would be bound (a create) and ignored on an unprotected match.
  const command = { ...upload('{"v":2}'), writeToken: { hash: 'h', wellFormed: false, longEnoughToErase: false } };
  const result = await handleCommand(store, 'match-m', matchDecider, command, meta, { cache: createStateCache<MatchState>() });
  t.same(
    result.events.map((e) => e.type),
    ['MatchReplaced'],
  );
  await t.rejects(
    handleCommand(store, 'match-new', matchDecider, command, meta, { cache: createStateCache<MatchState>() }),
    DomainError,
    'and still refused on a new one',
  );
  t.same(await store.readStream('match-new'), []);
});

t.test('the cache drops the least recently used stream first', async (t) => {
  const cache = createStateCache<number>(2);
  const head = { revision: 0, position: 1 };
  cache.set('a', head, 1);
  cache.set('b', head, 2);
  cache.get('a');
  cache.set('c', head, 3);
  t.ok(cache.get('a'), 'recently used kept');
  t.equal(cache.get('b'), undefined, 'least recently used dropped');
  t.ok(cache.get('c'));
});

t.test('commands on one match in one process take turns: none conflicts, each appends once, in arrival order', async (t) => {
  const store = storeFor(t);
  let appends = 0;
  const counted: EventStore = {
    ...store,
    appendToStream(streamId, events, expected) {
      appends += 1;
      return store.appendToStream(streamId, events, expected);
    },
  };
  const cache = createStateCache<MatchState>();
  const queue = createStreamQueue();
  const writers = Array.from({ length: 20 }, (_, i) =>
    handleCommand(counted, 'match-m', matchDecider, upload(`{"v":${i}}`, null, 'PUT'), meta, { cache, queue }),
  );
  const results = await Promise.all(writers);
  t.equal(appends, 20, 'no append was retried');
  t.same(
    results.map((r) => r.append?.nextExpectedRevision),
    [...Array(20).keys()],
    'in arrival order',
  );
  const other = await handleCommand(counted, 'match-n', matchDecider, { ...upload('{}'), matchId: 'n' }, meta, { cache, queue });
  t.equal(other.append?.nextExpectedRevision, 0, 'another match is not held up');
});

t.test("event ids are UUIDv7: the handling's time first, so later handlings sort after earlier ones", async (t) => {
  const store = storeFor(t);
  const twoEvents = {
    ...matchDecider,
    decide: (command: UploadMatch, state: MatchState) => [...matchDecider.decide(command, state), ...matchDecider.decide(command, state)],
  };
  const handled: { before: number; after: number }[] = [];
  for (let i = 0; i < 3; i += 1) {
    const before = Date.now();
    await handleCommand(store, `match-${i}`, twoEvents, { ...upload(`{"v":${i}}`), matchId: String(i) }, meta);
    handled.push({ before, after: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const ids = (await store.readAll({ after: null, maxCount: 100 })).map((event) => event.id);
  t.equal(ids.length, 6);
  for (const id of ids) t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const timeOf = (id: string) => Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  handled.forEach(({ before, after }, i) => {
    const [first, second] = [ids[2 * i]!, ids[2 * i + 1]!];
    t.ok(timeOf(first) >= before && timeOf(first) <= after, 'the time is when the command was handled');
    t.equal(timeOf(second), timeOf(first), 'the events of one handling share it');
    t.not(second, first);
    if (i > 0)
      t.ok(
        [first, second].every((id) => id > ids[2 * i - 1]! && id > ids[2 * i - 2]!),
        'after the ids of the handling before',
      );
  });
});

t.test('a decision to change nothing appends nothing and answers as a no-op', async (t) => {
  const store = storeFor(t);
  const nothing = { ...matchDecider, decide: () => [] };
  const result = await handleCommand(store, 'match-m', nothing, upload('{}'), meta);
  t.same(result, { events: [], append: null, state: { exists: false }, head: null });
  t.same(await store.readStream('match-m'), [], 'the stream is still empty');
});

t.test('a no-op on an existing stream tells where the stream ends, read or cached', async (t) => {
  const store = storeFor(t);
  const cache = createStateCache<MatchState>();
  const { append } = await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}'), meta, { cache });
  const end = { revision: append!.nextExpectedRevision, position: append!.position };
  for (const withCache of [cache, undefined]) {
    const again = await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}'), meta, { cache: withCache });
    t.same({ events: again.events, append: again.append, head: again.head }, { events: [], append: null, head: end }, withCache ? 'cached' : 'read');
  }
  t.equal((await store.readStream('match-m')).length, 1, 'one event stored');
});

/** The real SQLite store whose next `conflicts` appends lose to a writer in another process: it writes first. */
function contendedStore(store: EventStore, conflicts: number) {
  let left = conflicts;
  const appends = { tried: 0 };
  const contended: EventStore = {
    ...store,
    async appendToStream(streamId, events, expectedRevision) {
      appends.tried += 1;
      if (left > 0) {
        left -= 1;
        const current = (await store.readStream(streamId, { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? null;
        const other = {
          id: randomUUID(),
          type: 'MatchReplaced',
          data: withPayload({ schemaVersion: 1, matchId: 'm', replacedVia: 'PUT' }, asJsonText(`{"other":${appends.tried}}`)),
          metadata: meta,
        };
        if (current !== null) await store.appendToStream(streamId, [other], current);
      }
      return store.appendToStream(streamId, events, expectedRevision);
    },
  };
  return { contended, appends };
}

const noWait = (waits: number[]) => ({ ...DEFAULT_RETRY, sleep: async (ms: number) => void waits.push(ms), random: () => 1 });

t.test('a conflicting append is decided again on the new state after a short wait, and then succeeds', async (t) => {
  const store = storeFor(t);
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}'), meta);
  const { contended, appends } = contendedStore(store, 2);
  const waits: number[] = [];
  const handled = await handleCommand(contended, 'match-m', matchDecider, upload('{"v":2}', null, 'PUT'), meta, { retry: noWait(waits) });
  t.equal(appends.tried, 3, 'two lost appends, then the third');
  t.same(waits, [2, 4], 'waits grow: base, then doubled');
  t.equal(handled.append?.nextExpectedRevision, 3, 'appended after the two other writes');
});

t.test('writers that keep colliding get 503 unavailable after the bounded number of attempts', async (t) => {
  const store = storeFor(t);
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}'), meta);
  const { contended, appends } = contendedStore(store, 100);
  const waits: number[] = [];
  await t.rejects(handleCommand(contended, 'match-m', matchDecider, upload('{"v":2}', null, 'PUT'), meta, { retry: { ...noWait(waits), maxAttempts: 5 } }), {
    code: 'unavailable',
  });
  t.equal(appends.tried, 5, 'exactly maxAttempts appends');
  t.equal(waits.length, 4, 'a wait between attempts, none after the last');
});

t.test('waits are jittered and capped', async (t) => {
  const policy = { baseDelayMs: 2, maxDelayMs: 100 };
  t.equal(retryDelay({ ...policy, random: () => 0 }, 3), 0, 'full jitter: may be no wait at all');
  t.equal(retryDelay({ ...policy, random: () => 0.5 }, 3), 4, 'half of 2 × 2²');
  t.equal(retryDelay({ ...policy, random: () => 1 }, 20), 100, 'never more than maxDelayMs');
});

t.test('errors other than a conflict are not retried', async (t) => {
  const store = storeFor(t);
  let tried = 0;
  const failing: EventStore = {
    ...store,
    async appendToStream() {
      tried += 1;
      throw new Error('disk on fire');
    },
  };
  await t.rejects(handleCommand(failing, 'match-m', matchDecider, upload('{"v":1}'), meta, { retry: noWait([]) }), /disk on fire/);
  t.equal(tried, 1);
});
