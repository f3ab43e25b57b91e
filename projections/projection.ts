import type { DecodedPayloads } from '../src/domain/decodedPayloads.js';
import type { MatchDiff } from '../src/domain/matchDiff.js';
import type { BasisText } from '../src/domain/storedBasis.js';
import type { TeamNames } from '../src/domain/matchPayload.js';
import type { LogEventType } from '../src/domain/logEventType.js';
import type { EventStore, RecordedEvent } from '../src/eventstore/eventStore.js';
import type { CollectionName, Document, Identified, IndexSpec } from '../src/readmodel/readModel.js';
import type { ProjectionMemory } from './projectionMemory.js';

/** What a projection may do to its read model while it handles one event. */
export interface ProjectionView {
  get<Doc extends Identified = Document>(collection: CollectionName<Doc>, id: string): Promise<Doc | null>;
  /** Puts a document of the collection's declared type (any document in one named by a plain string). */
  put<Doc extends Identified = Document>(collection: CollectionName<Doc>, doc: NoInfer<Doc>): void;
  delete(collection: string, id: string): void;
  /**
   * An event of the log, null when there is none. Events never change, so reading one keeps
   * `apply` deterministic; for an event of the same append that a delivery left out.
   */
  readEvent(streamId: string, revision: number): Promise<RecordedEvent | null>;
  /** Match payloads parsed once for every projection of the batch (or as the request that wrote them parsed them). */
  readonly payloads: Pick<DecodedPayloads, 'decoded' | 'parsed'>;
  /** Work done off the event loop (the engine's helper thread), or null: done in place. */
  readonly offLoop: OffLoopWork | null;
  /** What projections keep between batches, owned by the runner or replay applying them (./projectionMemory.ts). */
  readonly memory: ProjectionMemory;
}

/**
 * Work a projection may have done off the event loop, with the result it would make in place
 * (src/runtime/helperThread.ts). A rejection means it could not be done there: do it in place.
 */
export interface OffLoopWork {
  /** Payload texts of at least this many characters are worth the hop. */
  minChars: number;
  /** The text of diffBasisOfText(text, null) (src/domain/matchDiffText.ts). */
  diffBasis(text: string): Promise<BasisText>;
  /**
   * The diff from the version `previous` is the basis of to the version `text` holds, and the
   * text of that version's basis: diffBases(previous, diffBasisOfText(text, previous)).
   */
  versionDiff(text: string, previous: BasisText): Promise<{ diff: MatchDiff; basis: BasisText }>;
  /** matchTeamNames of the payload `text` holds (src/domain/matchPayload.ts). */
  teamNames(text: string): Promise<TeamNames>;
}

/**
 * `work` done off the event loop, when the view has where and `text` (a payload's) is large enough
 * to be worth the hop; undefined when it was not, or failed there: the caller does it in place,
 * with the same result or the same error.
 */
export async function doneOffLoop<T>(view: Pick<ProjectionView, 'offLoop'>, text: string, work: (offLoop: OffLoopWork) => Promise<T>): Promise<T | undefined> {
  const { offLoop } = view;
  if (offLoop === null || text.length < offLoop.minChars) return undefined;
  try {
    return await work(offLoop);
  } catch {
    return undefined;
  }
}

/** Where a projection's view reads events that were not delivered with the append. */
export type EventLog = Pick<EventStore, 'readStream'>;

/** The event at `revision` of a stream, or null when the stream has none there. */
export async function readEventAt(log: EventLog, streamId: string, revision: number): Promise<RecordedEvent | null> {
  const [event] = await log.readStream(streamId, { fromRevision: revision, maxCount: 1 });
  return event?.revision === revision ? event : null;
}

/**
 * A read model derived from the log. `apply` must depend only on the event, the other events of
 * its append and the documents it reads, so replaying the log rebuilds the same documents.
 * The runner delivers every append whole, in one batch (projections/appends.ts).
 */
export interface Projection {
  readonly name: string;
  /** Collections this projection owns (dropped on rebuild). */
  readonly collections: string[];
  /** Indexes its readers' queries need. */
  readonly indexes: IndexSpec[];
  /**
   * Event types whose append changes this projection's documents: a write waits for the
   * projection (read-your-writes) only when its append holds one. Absent: every write waits.
   */
  readonly changedBy?: readonly LogEventType[];
  /** Event types `apply` (and `reads`) is given, the others of an append only in `append`; absent: every event. */
  readonly canHandle?: readonly LogEventType[];
  /**
   * Documents `apply` will read for this event, if the projection can tell without reading:
   * the runner fetches a batch's worth with one query per collection instead of one per event.
   * Optional, and only a hint: a read not named here is simply made when `apply` asks.
   */
  reads?(event: RecordedEvent): DocumentRef[];
  /** Called for each event in log order; `append` holds every event of its append, itself included. */
  apply(event: RecordedEvent, view: ProjectionView, append: readonly RecordedEvent[]): Promise<void>;
  /**
   * Called once a batch's events are applied (when it was given any), its view at the last of
   * them: what only a batch's last state needs is made once, however many events the batch had
   * (the transparency log's root). It must depend only on the documents it reads, as `apply`.
   */
  finishBatch?(view: ProjectionView): Promise<void>;
}

/** An event of the log whose type is one of `Types`. */
type EventOf<Types extends LogEventType> = RecordedEvent & { readonly type: Types };

/**
 * A projection declared with the event types it handles (as Emmett's `CanHandle<T>`): `apply`
 * and `reads` are typed on exactly that union, and the runner gives them no other event. Both
 * lists name events of the log (a misspelt name does not compile), `changedBy` only handled ones.
 */
export interface ProjectionDefinition<Types extends LogEventType> extends Omit<Projection, 'canHandle' | 'changedBy' | 'reads' | 'apply'> {
  readonly canHandle: readonly Types[];
  readonly changedBy?: readonly NoInfer<Types>[];
  reads?(event: EventOf<Types>): DocumentRef[];
  apply(event: EventOf<Types>, view: ProjectionView, append: readonly RecordedEvent[]): Promise<void>;
}

/** Declares a projection: `canHandle: ['MatchCreated', ...]` types its handler (applyBatch keeps that promise). */
export const defineProjection = <const Types extends LogEventType>(definition: ProjectionDefinition<Types>): Projection => definition;

/** Whether `projection` is given `event` (its canHandle names the event's type, or it has none). */
export const handles = (projection: Pick<Projection, 'canHandle'>, event: RecordedEvent) =>
  projection.canHandle === undefined || projection.canHandle.some((type) => type === event.type);

export interface DocumentRef {
  collection: string;
  id: string;
}
