import type { Test } from 'tap';
import type { RecordedEvent } from '../../src/eventstore/eventStore.js';
import type { Document, ReadModelReader, ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import type { EventLog, Projection } from '../../projections/projection.js';
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

/** The log the events come from: each event once, in log order, as a rebuild replays it. */
const logOf = (events: RecordedEvent[]) => [...new Map(events.map((event) => [event.position, event])).values()].sort((a, b) => a.position - b.position);

/** The spec's log as a projection reads it back (ProjectionView.readEvent): a stream from a revision on. */
const logReader = (events: RecordedEvent[]): EventLog => ({
  async readStream(streamId, { fromRevision = 0, maxCount = Number.MAX_SAFE_INTEGER } = {}) {
    return logOf(events)
      .filter((event) => event.streamId === streamId && event.revision >= fromRevision)
      .sort((a, b) => a.revision - b.revision)
      .slice(0, maxCount);
  },
});

/** A real (in-memory SQLite) read model with each batch applied by every projection, as the runner commits it. */
async function projected(t: Test, projections: Projection[], batches: RecordedEvent[][]): Promise<ReadModelStore> {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  const log = logReader(batches.flat());
  for (const projection of projections) {
    for (const batch of batches) {
      const last = batch.at(-1);
      if (last)
        await store.commit(
          projection.name,
          await applyBatch(projection, store, batch, undefined, log),
          last.position,
          await store.getCheckpoint(projection.name),
        );
    }
  }
  return store;
}

async function documentsOf(store: ReadModelReader, projections: Projection[]): Promise<Record<string, Document[]>> {
  const out: Record<string, Document[]> = {};
  for (const projection of projections) for (const collection of projection.collections) out[collection] = await store.find(collection);
  return out;
}

/**
 * `given(events).when(moreEvents, { times: 2 }).then(t, collection, documents)`, or
 * `.thenRead(t, async (reader) => …)` to check through the projections' own readers: projection
 * specs on a real (in-memory SQLite) read model. Every spec is run three ways, which must give
 * the same documents: `when` delivered once; delivered `times` times, as an at-least-once
 * subscription may (idempotence); and the whole log replayed into an empty read model (rebuild).
 * The check runs on the one delivered `times` times.
 */
export function projectionSpec(...projections: Projection[]) {
  return (given: RecordedEvent[]) => ({
    when: (events: RecordedEvent[], { times = 2 } = {}) => {
      async function run(t: Test): Promise<ReadModelReader> {
        const repeated = await projected(t, projections, [given, ...Array.from({ length: times }, () => events)]);
        const documents = await documentsOf(repeated, projections);
        if (times !== 1)
          t.same(
            documents,
            await documentsOf(await projected(t, projections, [given, events]), projections),
            `delivered ${times} times: the same documents as once`,
          );
        t.same(
          documents,
          await documentsOf(await projected(t, projections, [logOf([...given, ...events])]), projections),
          'rebuilt from the log: the same documents',
        );
        return repeated;
      }
      return {
        async then(t: Test, collection: string, expected: Document[]) {
          t.same(await (await run(t)).find(collection), expected);
        },
        async thenRead(t: Test, check: (reader: ReadModelReader) => Promise<void>) {
          await check(await run(t));
        },
      };
    },
  });
}
