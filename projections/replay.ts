import { createDecodedPayloads } from '../src/domain/decodedPayloads.js';
import type { EventStore, Position, RecordedEvent } from '../src/eventstore/eventStore.js';
import { type CollectionName, collectionOf, type Identified, type ReadModelStore } from '../src/readmodel/readModel.js';
import type { Projection, ProjectionView } from './projection.js';
import { holdLastAppend } from './appends.js';
import { applyBatch } from './unitOfWork.js';
import { createProjectionMemory } from './projectionMemory.js';

export interface ReplayProgress {
  /** Events read from the log so far. */
  events: number;
  position: Position | null;
  /** Position the replay runs to. */
  until: Position | null;
}

/**
 * Applies the log to `readModel` for `projection`, from its stored checkpoint up to and
 * including `until`, batch by batch, each batch committed with its checkpoint.
 */
export async function replayUntil(
  projection: Projection,
  eventStore: EventStore,
  readModel: ReadModelStore,
  until: Position | null,
  onProgress: (progress: ReplayProgress) => void = () => {},
  batchSize = 500,
): Promise<ReplayProgress> {
  let checkpoint = await readModel.getCheckpoint(projection.name);
  let read = checkpoint;
  let held: RecordedEvent[] = [];
  let events = 0;
  // One cache for the whole replay: a version compared with the one before may find it parsed.
  const payloads = createDecodedPayloads();
  const memory = createProjectionMemory();
  while (until !== null && (checkpoint ?? 0) < until) {
    const batch = (read ?? 0) < until ? (await eventStore.readAll({ after: read, maxCount: batchSize })).filter((e) => e.position <= until) : [];
    read = batch.at(-1)?.position ?? read;
    // The last append may go on in the next read, unless the log ends here.
    const { ready, held: rest } = batch.length === 0 ? { ready: held, held: [] } : holdLastAppend([...held, ...batch]);
    held = rest;
    const last = ready.at(-1);
    if (!last) {
      if (batch.length === 0) break;
      continue;
    }
    await readModel.commit(
      projection.name,
      await applyBatch(projection, readModel.forUpdates, ready, undefined, eventStore, payloads, null, memory),
      last.position,
      checkpoint,
    );
    checkpoint = last.position;
    events += ready.length;
    onProgress({ events, position: checkpoint, until });
  }
  return { events, position: checkpoint, until };
}

const STAGED_SUFFIX = '__rebuild';

const stagedName = (collection: string) => `${collection}${STAGED_SUFFIX}`;

/** The same projection writing under staged names, so a rebuild never touches what readers see. */
function stagedProjection(projection: Projection): Projection {
  return {
    name: stagedName(projection.name),
    collections: projection.collections.map(stagedName),
    indexes: projection.indexes.map((index) => ({ ...index, collection: stagedName(index.collection) })),
    ...(projection.canHandle && { canHandle: projection.canHandle }),
    ...(projection.reads && {
      reads: (event) => (projection.reads?.(event) ?? []).map((ref) => ({ ...ref, collection: stagedName(ref.collection) })),
    }),
    apply: (event, view, append) => projection.apply(event, renamed(view), append),
    ...(projection.finishBatch && { finishBatch: (view) => projection.finishBatch?.(renamed(view)) ?? Promise.resolve() }),
  };
}

/** A view whose collections are their staged twins, which hold documents of the same types. */
function renamed(view: ProjectionView): ProjectionView {
  const twin = <Doc extends Identified>(collection: CollectionName<Doc>) => collectionOf<Doc>(stagedName(collection));
  return {
    readEvent: (streamId, revision) => view.readEvent(streamId, revision),
    get: (collection, id) => view.get(twin(collection), id),
    put: (collection, doc) => view.put(twin(collection), doc),
    delete: (collection, id) => view.delete(stagedName(collection), id),
    payloads: view.payloads,
    offLoop: view.offLoop,
    memory: view.memory,
  };
}

/** What a rebuild switched in: its replay, and when the position it reached was the log's end. */
export interface RebuildResult extends ReplayProgress {
  currentAt: Date;
}

/** Catch-up passes after the first replay, at most: each replays what was appended during the one before. */
const MAX_CATCH_UP_PASSES = 10;

/**
 * Replays the log into `projection` up to its end, then again up to its new end while it grew
 * meanwhile (MAX_CATCH_UP_PASSES at most): what it reached, and when that was the log's end.
 */
async function replayToTheEnd(
  projection: Projection,
  eventStore: EventStore,
  readModel: ReadModelStore,
  onProgress?: (progress: ReplayProgress) => void,
): Promise<RebuildResult> {
  let events = 0;
  for (let pass = 0; ; pass += 1) {
    const currentAt = new Date();
    const head = await eventStore.headPosition();
    const result = await replayUntil(projection, eventStore, readModel, head, (progress) => onProgress?.({ ...progress, events: events + progress.events }));
    events += result.events;
    // Nothing was appended since the pass before (its end was still the log's end), or enough passes.
    if (result.events === 0 || pass === MAX_CATCH_UP_PASSES) return { ...result, events, currentAt };
  }
}

/**
 * Rebuilds a projection from the whole log into staged collections, catches them up with what
 * was appended meanwhile, then promotes them in one step. Readers keep seeing the old documents
 * until the switch; a runner serving them notices its checkpoint moved and carries on from the
 * rebuilt one. What is switched in was the log's end at `currentAt` (moments before the switch
 * unless uploads outpaced MAX_CATCH_UP_PASSES passes); a running worker applies what came after.
 */
export async function rebuildProjection(
  projection: Projection,
  eventStore: EventStore,
  readModel: ReadModelStore,
  onProgress?: (progress: ReplayProgress) => void,
): Promise<RebuildResult> {
  const staged = stagedProjection(projection);
  await readModel.reset(staged.name, staged.collections);
  await readModel.ensureIndexes(staged.indexes);
  const result = await replayToTheEnd(staged, eventStore, readModel, onProgress);
  await readModel.promote(projection.name, {
    projection: staged.name,
    collections: projection.collections.map((live, i) => ({ live, staged: staged.collections[i] ?? `${live}${STAGED_SUFFIX}` })),
  });
  return result;
}
