import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { appendsOf, holdLastAppend } from '../../projections/appends.js';
import type { Projection } from '../../projections/projection.js';
import { replayUntil } from '../../projections/replay.js';
import { runProjection } from '../../projections/runner.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { clubDashboardProjection, readClubMatch } from '../../projections/clubDashboard.js';
import { readSyncLog, syncStatusProjection } from '../../projections/syncStatus.js';
import { applyBatch } from '../../projections/unitOfWork.js';
import { fixtureText } from '../helpers/fixtures.js';
import { recorded } from '../helpers/projectionSpec.js';
import { createSyncWorld } from '../helpers/syncWorld.js';
import { tempDataDir } from '../helpers/testApp.js';

const at = (event: ReturnType<typeof recorded>, time: string) => ({ ...event, recordedAt: time });

t.test('a batch splits into appends: one stream, consecutive revisions', async (t) => {
  const x = { type: 'X', data: '{}' };
  const events = [
    at(recorded('a', 0, 1, x), 'T1'),
    at(recorded('a', 1, 2, x), 'T1'),
    at(recorded('b', 0, 3, x), 'T1'),
    at(recorded('a', 2, 4, x), 'T1'),
    at(recorded('a', 3, 5, x), 'T2'),
  ];
  t.same(
    appendsOf(events).map((append) => append.map((e) => e.position)),
    [[1, 2], [3], [4, 5]],
    'back-to-back appends to one stream may show as one',
  );
  t.same(holdLastAppend(events.slice(0, 2)), { ready: [], held: events.slice(0, 2) }, 'the last append is held back');
  t.same(
    holdLastAppend(events.slice(0, 3)).ready.map((e) => e.position),
    [1, 2],
  );
});

/** Records, per event, the positions of the append it was delivered with. */
const recorder = (seen: Map<number, number[]>): Projection => ({
  name: 'recorder',
  collections: ['seen'],
  indexes: [],
  async apply(event, view, append) {
    seen.set(
      event.position,
      append.map((e) => e.position),
    );
    view.put('seen', { id: String(event.position) });
  },
});

t.test('the runner and a replay deliver every append whole, even with batches smaller than an append', async (t) => {
  const dir = tempDataDir(t);
  const eventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
  t.teardown(() => eventStore.close());
  const x = (n: number) => ({ id: randomUUID(), type: 'X', data: JSON.stringify({ n }), metadata: { schemaVersion: 1 } });
  await eventStore.appendToStream('s-1', [x(1), x(2), x(3)], 'no_stream');
  await eventStore.appendToStream('s-2', [x(4)], 'no_stream');
  await eventStore.appendToStream('s-1', [x(5), x(6)], 2);
  const expected = new Map([
    [1, [1, 2, 3]],
    [2, [1, 2, 3]],
    [3, [1, 2, 3]],
    [4, [4]],
    [5, [5, 6]],
    [6, [5, 6]],
  ]);

  const live = new Map<number, number[]>();
  const readModel = openSqliteReadModel(join(dir, 'live.sqlite'));
  t.teardown(() => readModel.close());
  const runner = runProjection(recorder(live), eventStore, readModel, { info: () => {}, error: () => {} }, { batchSize: 1 });
  t.ok(await runner.waitFor(6, 10_000), 'caught up');
  await runner.stop();
  t.same(live, expected, 'runner');

  const replayed = new Map<number, number[]>();
  const scratch = openSqliteReadModel(':memory:');
  t.teardown(() => scratch.close());
  await replayUntil(recorder(replayed), eventStore, scratch, 6, () => {}, 2);
  t.same(replayed, expected, 'replay');
  t.equal(await scratch.getCheckpoint('recorder'), 6);
});

t.test('a sync outcome delivered without its upload (a split append) reads the payload from the log', async (t) => {
  const world = createSyncWorld(t);
  const club = await world.club('Lakeside VC');
  await world.upload(fixtureText({ seed: 2, club: club.clubId, team: club.teamId, id: 'split' }), { appKey: club.key });
  const events = await world.eventStore.readAll({ after: null, maxCount: 1000 });
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  for (const projection of [clubDashboardProjection, syncStatusProjection]) {
    let checkpoint: number | null = null;
    for (const event of events) {
      await store.commit(projection.name, await applyBatch(projection, store, [event], undefined, world.eventStore), event.position, checkpoint);
      checkpoint = event.position;
    }
  }
  t.match(await readClubMatch(store, club.clubId, 'split'), { outcome: 'synced', actionCount: Number }, 'the club copy is made');
  t.match((await readSyncLog(store, club.clubId, { limit: 10 })).rows, [{ matchId: 'split', outcome: 'synced', playersCopied: Number }]);
  t.ok(((await readSyncLog(store, club.clubId, { limit: 10 })).rows[0]?.playersCopied ?? 0) > 0, 'players counted from the payload');
});
