import { join } from 'node:path';
import t from 'tap';
import { createStateCache, createStreamQueue, handleCommand } from '../../src/commands/commandHandler.js';
import { matchDecider } from '../../src/commands/matchCommands.js';
import { DomainError } from '../../src/domain/errors.js';
import { asJsonText } from '../../src/domain/jsonText.js';
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
  writeToken: writeTokenHash === null ? null : { hash: writeTokenHash, wellFormed: true },
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

t.test('with a state cache, a re-uploaded match reads only the events it has not seen', async (t) => {
  const store = openSqliteEventStore(join(tempDataDir(t), 'events.sqlite'));
  t.teardown(() => store.close());
  const { counted, reads } = countingStore(store);
  const cache = createStateCache<MatchState>();
  for (let v = 0; v < 30; v += 1) await handleCommand(counted, 'match-m', matchDecider, upload(`{"v":${v}}`, 'h'), meta, { cache });
  t.equal(reads[0], 0, 'the first upload finds no stream');
  t.ok(reads.slice(1).every((n) => n === 0), 'later uploads read nothing: the cache knows what they appended');
  t.equal((await store.readStream('match-m')).length, 30);
});

t.test('a cached state is caught up with what other writers appended', async (t) => {
  const store = openSqliteEventStore(join(tempDataDir(t), 'events.sqlite'));
  t.teardown(() => store.close());
  const cache = createStateCache<MatchState>();
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":1}', 'h1'), meta, { cache });
  await handleCommand(store, 'match-m', matchDecider, upload('{"v":2}', 'h1', 'PUT'), meta); // another process: no cache
  const result = await handleCommand(store, 'match-m', matchDecider, upload('{"v":3}', 'h1'), meta, { cache });
  t.equal(result.append?.nextExpectedRevision, 2, 'appended after the other writer, not over it');
  await t.rejects(handleCommand(store, 'match-m', matchDecider, upload('{"v":4}', 'h2'), meta, { cache }), DomainError, 'protection still applies');
});

t.test('the cache drops the least recently used stream first', async (t) => {
  const cache = createStateCache<number>(2);
  cache.set('a', 0, 1);
  cache.set('b', 0, 2);
  cache.get('a');
  cache.set('c', 0, 3);
  t.ok(cache.get('a'), 'recently used kept');
  t.equal(cache.get('b'), undefined, 'least recently used dropped');
  t.ok(cache.get('c'));
});

t.test('commands on one match in one process take turns: none conflicts, each appends once, in arrival order', async (t) => {
  const store = openSqliteEventStore(join(tempDataDir(t), 'events.sqlite'));
  t.teardown(() => store.close());
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
  const writers = Array.from({ length: 20 }, (_, i) => handleCommand(counted, 'match-m', matchDecider, upload(`{"v":${i}}`, null, 'PUT'), meta, { cache, queue }));
  const results = await Promise.all(writers);
  t.equal(appends, 20, 'no append was retried');
  t.same(results.map((r) => r.append?.nextExpectedRevision), [...Array(20).keys()], 'in arrival order');
  const other = await handleCommand(counted, 'match-n', matchDecider, { ...upload('{}'), matchId: 'n' }, meta, { cache, queue });
  t.equal(other.append?.nextExpectedRevision, 0, 'another match is not held up');
});

t.test('a decision to change nothing appends nothing and answers as a no-op', async (t) => {
  const store = openSqliteEventStore(join(tempDataDir(t), 'events.sqlite'));
  t.teardown(() => store.close());
  const nothing = { ...matchDecider, decide: () => [] };
  const result = await handleCommand(store, 'match-m', nothing, upload('{}'), meta);
  t.same(result, { events: [], append: null });
  t.same(await store.readStream('match-m'), [], 'the stream is still empty');
});
