import { createDecodedPayloads, type DecodedPayloads } from '../src/domain/decodedPayloads.js';
import type { Position, RecordedEvent } from '../src/eventstore/eventStore.js';
import { type AnyDocument, type DocumentChange, documentOf, type ReadModelReader } from '../src/readmodel/readModel.js';
import { appendsOf } from './appends.js';
import { createProjectionMemory, type ProjectionMemory } from './projectionMemory.js';
import { type DocumentRef, type EventLog, handles, type OffLoopWork, type Projection, type ProjectionView, readEventAt } from './projection.js';

/**
 * Collects a batch's document changes in memory; reads see the batch's own earlier writes.
 * The runner commits `changes()` together with the checkpoint. Documents are values: a
 * projection builds a new one to change it rather than mutating what `get` returned.
 */
function createUnitOfWork(reader: ReadModelReader, log: EventLog | null, payloads: DecodedPayloads, offLoop: OffLoopWork | null, memory: ProjectionMemory) {
  const pending = new Map<string, DocumentChange>();
  /** Documents read ahead for the batch (null: known not to exist). */
  const loaded = new Map<string, AnyDocument | null>();
  const key = (collection: string, id: string) => `${collection}\0${id}`;

  async function prefetch(refs: DocumentRef[]) {
    const idsByCollection = new Map<string, Set<string>>();
    for (const { collection, id } of refs) {
      if (loaded.has(key(collection, id))) continue;
      idsByCollection.set(collection, (idsByCollection.get(collection) ?? new Set()).add(id));
    }
    for (const [collection, ids] of idsByCollection) {
      const found = await reader.getMany(collection, [...ids]);
      for (const id of ids) loaded.set(key(collection, id), found.get(id) ?? null);
    }
  }

  /**
   * As in the store, a change from an earlier position than the pending one is dropped. The
   * latest change of a document moves to the end: changes are committed in the order they were
   * last made, so a store writing one by one never deletes a source before what was copied from it.
   */
  function change(next: DocumentChange) {
    const id = key(next.collection, next.id);
    const current = pending.get(id);
    if (current !== undefined && current.position > next.position) return;
    pending.delete(id);
    pending.set(id, next);
  }

  function viewAt(position: Position): ProjectionView {
    return {
      async get(collection, id) {
        const change = pending.get(key(collection, id));
        if (change) return documentOf(collection, change.doc);
        const read = loaded.get(key(collection, id));
        return read !== undefined ? documentOf(collection, read) : reader.get(collection, id);
      },
      put(collection, doc) {
        change({ collection, id: doc.id, doc, position });
      },
      delete(collection, id) {
        change({ collection, id, doc: null, position });
      },
      async readEvent(streamId, revision) {
        return log === null ? null : readEventAt(log, streamId, revision);
      },
      payloads,
      offLoop,
      memory,
    };
  }

  return { prefetch, viewAt, changes: () => [...pending.values()] };
}

/**
 * Applies a batch of events (whole appends) to a projection: the documents it names in `reads`
 * are fetched first, in one query per collection; the changes come back for the caller to commit
 * with the checkpoint. Only the events the projection can handle are given to it, then its
 * finishBatch the view at the last of them. `onFailure` hears which event threw (the last, for
 * finishBatch) before the error propagates.
 * `payloads`: the caller's cache of parsed payloads (the runner's spans batches); a fresh one by default.
 * `offLoop`: where the projection may have work done off the event loop; none by default.
 * `memory`: what projections keep between batches (the caller's: a runner's or a replay's); a fresh one by default.
 */
export async function applyBatch(
  projection: Projection,
  reader: ReadModelReader,
  events: RecordedEvent[],
  onFailure: (event: RecordedEvent, error: unknown) => void = () => {},
  log: EventLog | null = null,
  payloads: DecodedPayloads = createDecodedPayloads(),
  offLoop: OffLoopWork | null = null,
  memory: ProjectionMemory = createProjectionMemory(),
): Promise<DocumentChange[]> {
  const unitOfWork = createUnitOfWork(reader, log, payloads, offLoop, memory);
  if (projection.reads) await unitOfWork.prefetch(events.flatMap((event) => (handles(projection, event) ? (projection.reads?.(event) ?? []) : [])));
  let last: RecordedEvent | null = null;
  const attempt = async (event: RecordedEvent, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      onFailure(event, error);
      throw error;
    }
  };
  for (const append of appendsOf(events)) {
    for (const event of append) {
      if (!handles(projection, event)) continue;
      await attempt(event, () => projection.apply(event, unitOfWork.viewAt(event.position), append));
      last = event;
    }
  }
  const end = last;
  if (end !== null && projection.finishBatch) await attempt(end, async () => projection.finishBatch?.(unitOfWork.viewAt(end.position)));
  return unitOfWork.changes();
}
