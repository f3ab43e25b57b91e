import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import { CheckpointMovedError, type ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { tempDataDir } from '../helpers/testApp.js';

const ROUNDS = 20;

/**
 * A worker that commits as fast as it can (one document per commit, the checkpoint one further),
 * reloading its checkpoint whenever it is told it moved; until stopped. While held it waits, so
 * the operator can plant a marker without racing it (racing a worker this fast on FerretDB can
 * take minutes: every plant is refused because the checkpoint moved).
 */
function busyWorker(store: ReadModelStore) {
  let stopped = false;
  let position = 0;
  // Set by hold() and resume(), read by the loop: an object, so the loop never sees a narrowed copy.
  const gate: { held: { release: () => void; promise: Promise<void> } | null; idle: (() => void) | null } = { held: null, idle: null };
  const done = (async () => {
    let expected = await store.getCheckpoint('p');
    while (!stopped) {
      // A store that answers at once (SQLite) would otherwise hold the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      const held = gate.held;
      if (held !== null) {
        gate.idle?.();
        await held.promise;
        expected = await store.getCheckpoint('p');
        continue;
      }
      position += 1;
      try {
        await store.commit('p', [{ collection: 'items', id: `w-${position}`, doc: { id: `w-${position}` }, position }], position, expected);
        expected = position;
      } catch (error) {
        if (!(error instanceof CheckpointMovedError)) throw error;
        expected = await store.getCheckpoint('p');
      }
    }
  })();
  return {
    /** Resolves once the worker has stopped between commits. */
    hold(): Promise<void> {
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      gate.held = { release, promise };
      return new Promise<void>((resolve) => {
        gate.idle = resolve;
      });
    },
    resume() {
      const current = gate.held;
      gate.held = null;
      gate.idle = null;
      current?.release();
    },
    async stop() {
      stopped = true;
      this.resume();
      await done;
    },
  };
}

/**
 * The switch a start-over (reset) or a rebuild (promote) makes is not undone by a worker
 * committing at that moment (issue 58, N4: on FerretDB a worker's checkpoint update read the
 * old pointer and wrote it back, 1–3 of 10 rebuilds). A document that was live before each
 * switch, and that the worker never writes again, must stay gone once the switch is made.
 */
async function switchesStand(t: Test, open: () => Promise<ReadModelStore>, settleMs: number) {
  const worker = await open();
  const operator = await open();
  t.teardown(async () => {
    await worker.close();
    await operator.close();
  });
  const running = busyWorker(worker);
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const marker = `before-switch-${round}`;
      // Planted while the worker waits, through a commit that leaves the checkpoint where it is.
      await running.hold();
      const at = await operator.getCheckpoint('p');
      await operator.commit('p', [{ collection: 'items', id: marker, doc: { id: marker }, position: at ?? 0 }], at ?? 0, at);
      running.resume();
      if (round % 2 === 0) await operator.reset('p', ['items']);
      else {
        await operator.reset('p__staged', ['items__staged']);
        await operator.commit('p__staged', [{ collection: 'items__staged', id: 'staged', doc: { id: 'staged' }, position: 1 }], 1, null);
        await operator.promote('p', { projection: 'p__staged', collections: [{ live: 'items', staged: 'items__staged' }] });
      }
      // Long enough for the worker to commit a few times in the new generation, and for readers' pointers to refresh.
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      if ((await operator.get('items', marker)) !== null) {
        t.fail(`round ${round} (${round % 2 === 0 ? 'start over' : 'rebuild'}): the switch was undone, the old collection is live again`);
        return;
      }
    }
    t.pass(`${ROUNDS} switches beside a busy worker, none undone`);
  } finally {
    await running.stop();
  }
}

t.test('sqlite: a worker committing during a switch cannot undo it', async (t) => {
  const file = join(tempDataDir(t), 'readmodel.sqlite');
  await switchesStand(t, async () => openSqliteReadModel(file), 100);
});

const url = testMongoUrl(t, 'matchlog_switch');
t.test('mongodb: a worker committing during a switch cannot undo it', { skip: url === null ? NO_MONGODB : false }, async (t) => {
  await switchesStand(t, () => openMongoReadModel(url ?? ''), 1200);
});
