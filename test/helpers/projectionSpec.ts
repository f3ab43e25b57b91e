import type { Test } from 'tap';
import type { RecordedEvent } from '../../src/eventstore/eventStore.js';
import type { Document } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import type { Projection } from '../../projections/projection.js';
import { applyBatch } from '../../projections/unitOfWork.js';

/** A stored event as a store would hand it to a projection. */
export function recorded(streamId: string, revision: number, position: number, event: { type: string; data: string }): RecordedEvent {
  return {
    ...event,
    id: `${streamId}-${revision}`,
    streamId,
    revision,
    position,
    recordedAt: new Date(Date.UTC(2026, 2, 1, 12, 0, position)).toISOString(),
    metadata: { schemaVersion: 1 },
  };
}

/**
 * `given(events).when(moreEvents, { times: 2 }).then(t, collection, documents)`: projection
 * tests on a real (in-memory SQLite) read model. `times: 2` delivers `when` twice, as an
 * at-least-once subscription may, to prove the projection is idempotent.
 */
export function projectionSpec(projection: Projection) {
  return (given: RecordedEvent[]) => ({
    when: (events: RecordedEvent[], { times = 2 } = {}) => ({
      async then(t: Test, collection: string, expected: Document[]) {
        const store = openSqliteReadModel(':memory:');
        t.teardown(() => store.close());
        const deliver = async (batch: RecordedEvent[]) => {
          const last = batch.at(-1);
          if (last) await store.commit(projection.name, await applyBatch(projection, store, batch), last.position, await store.getCheckpoint(projection.name));
        };
        await deliver(given);
        for (let i = 0; i < times; i += 1) await deliver(events);
        t.same(await store.find(collection), expected);
      },
    }),
  });
}
