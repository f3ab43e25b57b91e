import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { allProjections } from '../../projections/all.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { CheckpointMovedError, type ReadModelStore } from '../../src/readmodel/readModel.js';
import { documentsHolding, ERASURE_MARKER, erasureWriters, markedMatch, replayEveryProjection } from '../helpers/erasureWorld.js';

/** The behaviour every read-model adapter must have; collection names are unique per run. */
export function readModelContract(t: Test, adapter: string, open: () => Promise<ReadModelStore>) {
  const run = randomUUID().slice(0, 8);
  const coll = (name: string) => `c${run}_${name}`;

  t.test(`${adapter}: read model contract`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());

    t.test('documents round-trip; a missing one is null', async (t) => {
      const c = coll('roundtrip');
      const doc = { id: 'a', n: 1, big: 2 ** 40, float: -1.25, text: 'Zoë ⚽ "quoted"', nested: { list: [1, 2], flag: true }, none: null };
      await store.commit('p-roundtrip', [{ collection: c, id: 'a', doc, position: 1 }], 1, null);
      t.same(await store.get(c, 'a'), doc);
      t.equal(await store.get(c, 'missing'), null);
      t.equal(await store.get(coll('other'), 'a'), null, 'collections are separate');
    });

    t.test('getMany returns the documents that exist among the ids, tombstones left out', async (t) => {
      const c = coll('many');
      const docs = ['x', 'y', 'z'].map((id, i) => ({ id, n: i, 'J. Doe': { pts: i } }));
      await store.commit(
        'p-many',
        docs.map((doc, i) => ({ collection: c, id: doc.id, doc, position: i + 1 })),
        3,
        null,
      );
      await store.commit('p-many', [{ collection: c, id: 'y', doc: null, position: 4 }], 4, 3);
      const found = await store.getMany(c, ['z', 'x', 'y', 'missing', 'x']);
      t.same([...found.keys()].sort(), ['x', 'z']);
      t.same(found.get('x'), docs[0]);
      t.same(found.get('z'), docs[2]);
      t.same(await store.getMany(c, []), new Map());
    });

    t.test('keys and values chosen by users are kept as they are, at any depth', async (t) => {
      const c = coll('keys');
      const stats = JSON.parse('{"J. Doe": {"$pts": 3, "100%": true, "": "empty", "a\\u0000b": 1, "__proto__": {"x": 1}}}') as Record<string, unknown>;
      const doc = {
        id: 'k',
        club: 'a',
        stats,
        list: [{ 'dot.ted': 1 }, { $dollar: [{ 'x.y': 2 }] }],
        pairs: [['attacks', 8], ['digs', [5, [6]]], []],
        markers: { '%a': [1], '%s': 'x', '%': '%00' },
        nul: 'before\u0000after 100%',
      };
      await store.commit('p-keys', [{ collection: c, id: 'k', doc, position: 1 }], 1, null);
      const read = await store.get(c, 'k');
      t.same(read, doc);
      t.equal(JSON.stringify(read), JSON.stringify(doc), 'same keys in the same order; "__proto__" stays a key');
      t.same(
        (await store.find(c, { where: { club: 'a' } })).map((d) => d.id),
        ['k'],
        'and the document is found by its plain fields',
      );
      t.same(
        (await store.find(c, { where: { nul: 'before\u0000after 100%' } })).map((d) => d.id),
        ['k'],
        'or by a value holding NUL',
      );
    });

    t.test('checkpoints move with the commit', async (t) => {
      t.equal(await store.getCheckpoint('p-checkpoint'), null);
      await store.commit('p-checkpoint', [], 7, null);
      t.equal(await store.getCheckpoint('p-checkpoint'), 7);
      await store.commit('p-checkpoint', [{ collection: coll('cp'), id: 'x', doc: { id: 'x' }, position: 9 }], 9, 7);
      t.equal(await store.getCheckpoint('p-checkpoint'), 9);
      await t.rejects(store.commit('p-checkpoint', [], 12, 7), CheckpointMovedError, 'a moved checkpoint is a conflict');
      await t.rejects(store.commit('p-checkpoint', [], 12, null), CheckpointMovedError);
      t.equal(await store.getCheckpoint('p-checkpoint'), 9, 'and it stays where it was');
    });

    t.test('a checkpoint never moves back: a commit behind the expected one is refused, and nothing of it applies', async (t) => {
      const c = coll('back');
      await store.commit('p-back', [{ collection: c, id: 'a', doc: { id: 'a', n: 9 }, position: 9 }], 9, null);
      const refused = store.commit(
        'p-back',
        [
          { collection: c, id: 'a', doc: { id: 'a', n: 10 }, position: 10 },
          { collection: c, id: 'b', doc: { id: 'b' }, position: 6 },
        ],
        6,
        9,
      );
      await t.rejects(refused, CheckpointMovedError, 'the same error as a moved checkpoint');
      await t.rejects(refused, { projection: 'p-back', expected: 9, actual: 9, requested: 6, message: 'checkpoint of p-back cannot move back from 9 to 6' });
      t.equal(await store.getCheckpoint('p-back'), 9, 'the checkpoint stays');
      t.same(await store.get(c, 'a'), { id: 'a', n: 9 }, 'no document is written');
      t.equal(await store.get(c, 'b'), null);
      await t.rejects(store.commitAll([{ projection: 'p-back', changes: [], checkpoint: 8, expected: 9 }]), CheckpointMovedError, 'in commitAll too');
      await store.commit('p-back', [], 9, 9);
      t.equal(await store.getCheckpoint('p-back'), 9, 'staying where it is is no move back');
    });

    t.test('a change applies only over a document from an earlier position', async (t) => {
      const c = coll('guard');
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: { id: 'a', v: 'new' }, position: 10 }], 10, null);
      await store.commit(
        'p-guard',
        [
          { collection: c, id: 'a', doc: { id: 'a', v: 'old' }, position: 5 },
          { collection: c, id: 'b', doc: { id: 'b', v: 'first' }, position: 5 },
        ],
        10,
        10,
      );
      t.same(await store.get(c, 'a'), { id: 'a', v: 'new' }, 'older change ignored');
      t.same(await store.get(c, 'b'), { id: 'b', v: 'first' }, 'while the rest of the batch applies');
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: { id: 'a', v: 'recomputed on redelivery' }, position: 10 }], 10, 10);
      t.same(await store.get(c, 'a'), { id: 'a', v: 'new' }, 'a change from the same position changes nothing');
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: null, position: 4 }], 10, 10);
      t.same(await store.get(c, 'a'), { id: 'a', v: 'new' }, 'older delete ignored');
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: null, position: 11 }], 11, 10);
      t.equal(await store.get(c, 'a'), null, 'newer delete applies');
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: { id: 'a', v: 'new' }, position: 10 }], 11, 11);
      t.equal(await store.get(c, 'a'), null, 'an older put after the delete does not bring it back');
      t.equal(await store.count(c), 1, 'a deleted document is not counted');
      t.same(
        (await store.find(c)).map((d) => d.id),
        ['b'],
        'nor found',
      );
      await store.commit('p-guard', [{ collection: c, id: 'a', doc: { id: 'a', v: 'again' }, position: 12 }], 12, 11);
      t.same(await store.get(c, 'a'), { id: 'a', v: 'again' }, 'a newer put after the delete applies');
    });

    t.test('of workers committing from the same checkpoint exactly one moves it', async (t) => {
      const c = coll('race');
      const other = await open();
      t.teardown(() => other.close());
      await store.commit('p-race', [], 5, null);
      const outcomes = await Promise.allSettled(
        [store, other, store, other].map((s, i) => s.commit('p-race', [{ collection: c, id: 'x', doc: { id: 'x', by: i }, position: 6 + i }], 6 + i, 5)),
      );
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
      t.equal(won.length, 1, 'one commit wins');
      t.ok(
        outcomes.every((o) => o.status === 'fulfilled' || o.reason instanceof CheckpointMovedError),
        'the others are told the checkpoint moved',
      );
      t.equal(await store.getCheckpoint('p-race'), 6 + (won[0] ?? 0));
    });

    t.test('find filters by equality, sorts, pages; count agrees', async (t) => {
      const c = coll('find');
      await store.ensureIndexes([{ collection: c, fields: ['club', 'at'] }]);
      await store.ensureIndexes([{ collection: c, fields: ['club', 'at'] }]);
      const docs = [
        { id: 'm1', club: 'a', at: '2026-03-01', outcome: 'synced', meta: { season: '2025/26' }, n: 3, ok: true },
        { id: 'm2', club: 'a', at: '2026-03-03', outcome: 'skipped', meta: { season: '2025/26' }, n: 1, ok: false },
        { id: 'm3', club: 'a', at: '2026-03-02', outcome: 'synced', meta: { season: '2024/25' }, n: 2, ok: true },
        { id: 'm4', club: 'b', at: '2026-03-04', outcome: 'synced', meta: { season: '2025/26' }, n: 4, ok: true },
      ];
      await store.commit(
        'p-find',
        docs.map((doc, i) => ({ collection: c, id: doc.id, doc, position: i + 1 })),
        4,
        null,
      );
      const ids = (list: { id: string }[]) => list.map((d) => d.id);
      t.same(ids(await store.find(c, { where: { club: 'a' }, orderBy: [{ field: 'at', direction: 'desc' }] })), ['m2', 'm3', 'm1']);
      t.same(ids(await store.find(c, { where: { club: 'a', outcome: 'synced' }, orderBy: [{ field: 'at', direction: 'asc' }] })), ['m1', 'm3']);
      t.same(ids(await store.find(c, { where: { 'meta.season': '2025/26' }, orderBy: [{ field: 'n', direction: 'asc' }] })), ['m2', 'm1', 'm4']);
      t.same(ids(await store.find(c, { where: { ok: false } })), ['m2'], 'booleans compare as booleans');
      t.same(ids(await store.find(c, { where: { n: 4 } })), ['m4'], 'numbers compare as numbers');
      t.same(ids(await store.find(c, { where: { club: 'a' }, orderBy: [{ field: 'at', direction: 'desc' }], limit: 1, offset: 1 })), ['m3']);
      t.same(ids(await store.find(c)), ['m1', 'm2', 'm3', 'm4'], 'id order without a sort');
      t.equal(await store.count(c, { club: 'a' }), 3);
      t.equal(await store.count(c), 4);
      await store.commit('p-find', [{ collection: c, id: 'm5', doc: { id: 'm5', club: 'b', outcome: null }, position: 5 }], 5, 4);
      t.same(ids(await store.find(c, { where: { outcome: null } })), ['m5'], 'null matches null');
      t.same(ids(await store.find(c, { where: { 'meta.season': null } })), ['m5'], 'and a missing field');
      t.same(ids(await store.find(c, { where: { club: 'b' }, limit: 0 })), [], 'limit 0 finds nothing');
      await t.rejects(store.find(c, { where: { "x') OR 1=1 --": 'a' } }), 'field names are checked');
    });

    t.test('promote makes staged collections and checkpoint live, replacing the old ones', async (t) => {
      const live = coll('promote');
      const staged = coll('promote__staged');
      await store.commit(
        'p-promote',
        [
          { collection: live, id: 'old-only', doc: { id: 'old-only' }, position: 1 },
          { collection: live, id: 'both', doc: { id: 'both', v: 'old' }, position: 2 },
        ],
        2,
        null,
      );
      await store.commit(
        'p-promote__staged',
        [
          { collection: staged, id: 'both', doc: { id: 'both', v: 'rebuilt' }, position: 2 },
          { collection: staged, id: 'new-only', doc: { id: 'new-only' }, position: 3 },
        ],
        3,
        null,
      );
      await store.promote('p-promote', { projection: 'p-promote__staged', collections: [{ live, staged }] });
      t.same(
        (await store.find(live)).map((d) => d.id),
        ['both', 'new-only'],
      );
      t.same(await store.get(live, 'both'), { id: 'both', v: 'rebuilt' });
      t.equal(await store.getCheckpoint('p-promote'), 3, 'the staged checkpoint is live');
      t.equal(await store.getCheckpoint('p-promote__staged'), null);
      t.equal(await store.count(staged), 0, 'staged names are empty');
      await t.rejects(store.commit('p-promote', [], 4, 2), CheckpointMovedError, 'a runner still at the old checkpoint is told to reload');
      await store.commit('p-promote', [{ collection: live, id: 'later', doc: { id: 'later' }, position: 4 }], 4, 3);
      t.equal(await store.count(live), 3);
    });

    t.test('reset drops the collections and the checkpoint', async (t) => {
      const c = coll('reset');
      await store.commit('p-reset', [{ collection: c, id: 'a', doc: { id: 'a' }, position: 1 }], 1, null);
      await store.reset('p-reset', [c]);
      t.equal(await store.get(c, 'a'), null);
      t.equal(await store.getCheckpoint('p-reset'), null);
      t.equal(await store.count(c), 0);
    });
  });
}

/**
 * Erasure in the read models (issue 58): a worker that projected a match drops every trace of
 * it when the erasure arrives, and a rebuild (every projection reset, then replayed from the
 * start of the log) brings none back and replays past the erasure. The log is SQLite.
 */
export function readModelErasureContract(t: Test, adapter: string, open: () => Promise<ReadModelStore>) {
  t.test(`${adapter}: erase: the marker leaves every collection, live and after a rebuild`, async (t) => {
    const readModel = await open();
    t.teardown(() => readModel.close());
    const dir = mkdtempSync(join(tmpdir(), 'matchlog-erasure-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 });
    t.teardown(() => eventStore.close());
    const writers = erasureWriters(eventStore);
    const { matchId } = await markedMatch(writers, 'rm');
    await replayEveryProjection(eventStore, readModel);
    t.ok((await documentsHolding(readModel, ERASURE_MARKER)).length > 0, 'before: the marker is in the read models (so the check can see it)');

    const erased = await writers.erase(matchId);
    const stalled = (reached: Map<string, number | null>) => [...reached].filter(([, position]) => (position ?? -1) < erased.position).map(([name]) => name);
    t.same(stalled(await replayEveryProjection(eventStore, readModel)), [], 'a running worker projects past the erasure');
    t.same(await documentsHolding(readModel, ERASURE_MARKER), [], 'and no collection holds the marker');

    for (const projection of allProjections) await readModel.reset(projection.name, projection.collections);
    t.same(stalled(await replayEveryProjection(eventStore, readModel)), [], 'rebuilt from the start of the log: past the erasure');
    t.same(await documentsHolding(readModel, ERASURE_MARKER), [], 'and no collection holds the marker');
  });
}
