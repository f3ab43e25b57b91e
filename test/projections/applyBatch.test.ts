import t from 'tap';
import type { Projection } from '../../projections/projection.js';
import { applyBatch } from '../../projections/unitOfWork.js';
import type { ReadModelReader } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { clubDashboardProjection } from '../../projections/clubDashboard.js';
import { matchHistoryProjection } from '../../projections/matchHistory.js';
import { publicViewProjection } from '../../projections/publicView.js';
import { recorded } from '../helpers/projectionSpec.js';
import { clubPayload, createSyncWorld } from '../helpers/syncWorld.js';

/** Counts a projection's document per stream: reads the current count, puts count + 1. */
const counter: Projection = {
  name: 'counter',
  collections: ['counts'],
  indexes: [],
  reads: (event) => [{ collection: 'counts', id: event.streamId }],
  async apply(event, view) {
    const current = await view.get('counts', event.streamId);
    view.put('counts', { id: event.streamId, n: ((current?.n as number | undefined) ?? 0) + 1 });
  },
};

t.test('a batch reads the documents its projection names in one query, and sees its own writes', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  await store.commit('counter', [{ collection: 'counts', id: 's1', doc: { id: 's1', n: 5 }, position: 1 }], 1, null);
  const calls: string[] = [];
  const reader: ReadModelReader = {
    ...store,
    get: (collection, id) => {
      calls.push(`get ${id}`);
      return store.get(collection, id);
    },
    getMany: (collection, ids) => {
      calls.push(`getMany ${ids.join(',')}`);
      return store.getMany(collection, ids);
    },
  };
  const events = [
    recorded('s1', 1, 2, { type: 'X', data: '{}' }),
    recorded('s2', 0, 3, { type: 'X', data: '{}' }),
    recorded('s1', 2, 4, { type: 'X', data: '{}' }),
  ];

  const changes = await applyBatch(counter, reader, events);

  t.same(calls, ['getMany s1,s2'], 'one query for the batch, no read per event');
  t.same(
    changes.map((change) => [change.id, change.doc, change.position]),
    [
      ['s2', { id: 's2', n: 1 }, 3],
      ['s1', { id: 's1', n: 7 }, 4],
    ],
    'one change per document, in the order they were last changed',
  );
});

t.test("a projection's finishBatch runs once a batch, after its events, with the view at the last it was given", async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  let finished = 0;
  const totals: Projection = {
    ...counter,
    canHandle: ['MatchReplaced'],
    async finishBatch(view) {
      const counts = await Promise.all(['s1', 's2'].map((id) => view.get('counts', id)));
      finished += 1;
      view.put('counts', { id: 'total', n: counts.reduce((sum, doc) => sum + ((doc?.n as number | undefined) ?? 0), 0) });
    },
  };
  const events = [
    recorded('s1', 0, 1, { type: 'MatchReplaced', data: '{}' }),
    recorded('s2', 0, 2, { type: 'MatchReplaced', data: '{}' }),
    recorded('s1', 1, 3, { type: 'MatchReplaced', data: '{}' }),
    recorded('s3', 0, 4, { type: 'MatchErased', data: '{}' }),
  ];
  const changes = await applyBatch(totals, store, events);
  t.equal(finished, 1, 'once');
  t.same(
    changes.map((change) => [change.id, change.doc, change.position]),
    [
      ['s2', { id: 's2', n: 1 }, 2],
      ['s1', { id: 's1', n: 2 }, 3],
      ['total', { id: 'total', n: 3 }, 3],
    ],
    "it sees the batch's writes, and its own are at the last event it was given",
  );
  t.same(await applyBatch(totals, store, [recorded('s3', 1, 5, { type: 'MatchErased', data: '{}' })]), [], 'not for a batch it was given no event of');
  t.equal(finished, 1);
});

t.test('without reads, or for a document it did not name, the projection reads one by one', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const { reads: _reads, ...withoutReads } = counter;
  const changes = await applyBatch(withoutReads, store, [recorded('s1', 0, 1, { type: 'X', data: '{}' })]);
  t.same(
    changes.map((change) => change.doc),
    [{ id: 's1', n: 1 }],
  );
});

t.test('a change from an earlier position than the pending one is dropped, as the store would', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const events = [recorded('s1', 1, 5, { type: 'X', data: '{}' }), recorded('s1', 0, 2, { type: 'X', data: '{}' })];
  const changes = await applyBatch(counter, store, events);
  t.same(
    changes.map((change) => [change.doc, change.position]),
    [[{ id: 's1', n: 1 }, 5]],
  );
});

t.test('the event that throws is reported, and nothing is returned to commit', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const failing: Projection = { ...counter, apply: async (event) => void (event.position === 2 && JSON.parse('{')) };
  const failed: number[] = [];
  await t.rejects(
    applyBatch(failing, store, [recorded('s', 0, 1, { type: 'X', data: '{}' }), recorded('s', 1, 2, { type: 'X', data: '{}' })], (event) =>
      failed.push(event.position),
    ),
  );
  t.same(failed, [2]);
});

t.test("a match's first version and its sync outcome are applied without reading the read model: nothing can be stored for them yet", async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Readless Club');
  await world.upload(clubPayload(club.clubId, club.teamId, { id: 'first-version' }), { appKey: club.key });
  const append = (await world.log()).filter((event) => event.streamId === 'match-first-version');
  t.same(
    append.map((event) => event.type),
    ['MatchCreated', 'ClubSyncAccepted'],
  );
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const reads: string[] = [];
  const reader: ReadModelReader = {
    ...store,
    get: (collection, id) => {
      reads.push(`${collection} ${id}`);
      return store.get(collection, id);
    },
    getMany: (collection, ids) => {
      reads.push(`${collection} ${ids.join(',')}`);
      return store.getMany(collection, ids);
    },
  };
  for (const projection of [publicViewProjection, matchHistoryProjection, clubDashboardProjection]) {
    const changes = await applyBatch(projection, reader, append, undefined, world.eventStore);
    t.ok(changes.length > 0, `${projection.name} wrote its documents`);
  }
  t.same(reads, []);
});
