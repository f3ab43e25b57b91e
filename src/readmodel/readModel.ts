import type { Position } from '../domain/logPosition.js';

/**
 * The read-model port: named collections of JSON documents keyed by id, written only by
 * projections, read by the HTTP layer. Adapters: SQLite (./sqliteReadModel.ts) and MongoDB (./mongoReadModel.ts),
 * both held to test/contract/readModelContract.ts.
 */
/** What every read-model document has. A declared collection's type (an interface) needs nothing more. */
export interface Identified {
  id: string;
}

/** An untyped document: what a collection named by a plain string holds. */
export interface Document extends Identified {
  [field: string]: unknown;
}

/** A document of any collection, as the store writes it: of a declared type, or untyped. */
export type AnyDocument = Identified | Document;

export type FieldValue = string | number | boolean | null;

export interface Query {
  /** Equality on top-level or dotted fields. */
  where?: Record<string, FieldValue>;
  orderBy?: { field: string; direction: 'asc' | 'desc' }[];
  limit?: number;
  offset?: number;
}

/** A document put (or deleted when `doc` is null) by the event at `position`. */
export interface DocumentChange {
  collection: string;
  id: string;
  doc: AnyDocument | null;
  position: Position;
}

/** One projection's share of a commit: its changes and its checkpoint's move. */
export interface ProjectionCommit {
  projection: string;
  changes: DocumentChange[];
  checkpoint: Position;
  expected: Position | null;
}

export interface IndexSpec {
  collection: string;
  fields: string[];
}

declare const documentType: unique symbol;

/**
 * A collection's name that carries the type of its documents: a projection declares it once
 * (`collectionOf<MatchHistoryDoc>('matchHistory')`) and every read through it is of that type.
 * A plain string is not one: it names a collection of untyped documents.
 */
export type Collection<Doc extends Identified = Document> = string & { readonly [documentType]: Doc };

/**
 * What a read or a write names a collection by: its declaration, or a plain string for untyped
 * documents only. So `reader.get<PublicViewDoc>('publicView', id)` does not compile: the type
 * of what is read comes from the collection's declaration, never from the caller.
 */
export type CollectionName<Doc extends Identified> = Collection<Doc> | (Document extends Doc ? string : never);

/** Declares a collection of `Doc` documents. Only its projection writes it, so what is read is a `Doc`. */
export const collectionOf = <Doc extends Identified>(name: string) => name as Collection<Doc>;

/**
 * The one place a stored document takes its collection's type. Sound because only the
 * collection's projection writes it, through ProjectionView.put, which checks the type.
 */
export function documentOf<Doc extends Identified>(_collection: CollectionName<Doc>, doc: AnyDocument | null): Doc | null {
  return doc as Doc | null;
}

export interface ReadModelReader {
  get<Doc extends Identified = Document>(collection: CollectionName<Doc>, id: string): Promise<Doc | null>;
  /** The documents among `ids` that exist, by id: one query where `get` would make many. */
  getMany<Doc extends Identified = Document>(collection: CollectionName<Doc>, ids: string[]): Promise<Map<string, Doc>>;
  find<Doc extends Identified = Document>(collection: CollectionName<Doc>, query?: Query): Promise<Doc[]>;
  count(collection: string, where?: Record<string, FieldValue>): Promise<number>;
  getCheckpoint(projection: string): Promise<Position | null>;
}

export interface ReadModelStore extends ReadModelReader {
  /**
   * The reads a projection's next commit depends on (read-modify-write): documents as the last
   * commit left them. MongoDB reads them from the primary whatever READ_MODEL_URL prefers (a
   * secondary may lag); the store's own reads follow the URL. SQLite: the store itself.
   */
  readonly forUpdates: ReadModelReader;
  ensureIndexes(indexes: IndexSpec[]): Promise<void>;
  /**
   * Applies the changes and moves the projection's checkpoint from `expected` to `checkpoint`.
   * A change applies only over a document from an earlier position (or none): one from the
   * same or a later position stays, and a delete leaves a tombstone that an older put cannot
   * revive; so redelivered, recomputed or reordered changes are harmless. When the stored
   * checkpoint is not `expected` (another worker, or a rebuild that was promoted, moved it) the
   * checkpoint is left alone and the call rejects with CheckpointMovedError: reload the
   * checkpoint and go on from there. A `checkpoint` behind `expected` is refused the same way
   * (a checkpoint never moves back; only `promote` and `reset` set it outright). SQLite does
   * it all in one transaction; MongoDB per document in the order given, checkpoint last, so a
   * crash leaves a prefix of the changes.
   */
  commit(projection: string, changes: DocumentChange[], checkpoint: Position, expected: Position | null): Promise<void>;
  /**
   * `commit` for several projections: in SQLite all in one transaction (if any checkpoint moved,
   * nothing is applied); in MongoDB one after the other, in the order given.
   */
  commitAll(commits: ProjectionCommit[]): Promise<void>;
  /**
   * Makes what was built under `staged` names live: each live collection is replaced by its
   * staged twin, the projection's checkpoint becomes the staged projection's, and the staged
   * names are emptied. One atomic step in both stores (SQLite: a transaction; MongoDB: the
   * checkpoint document that names the collections, replaced in one write): a runner committing
   * meanwhile is told its checkpoint moved, and writes nothing readers see.
   */
  promote(projection: string, staged: { projection: string; collections: { live: string; staged: string }[] }): Promise<void>;
  /** Removes the collections' documents and the projection's checkpoint, in one atomic step as `promote`. */
  reset(projection: string, collections: string[]): Promise<void>;
  /**
   * After an erasure: leaves no copy of documents deleted or replaced so far in the store's own
   * files. SQLite overwrites freed space as it goes (secure_delete; a switch drops the tables it
   * replaces) and here empties its WAL; MongoDB drops the collections rebuilds and start-overs
   * left behind (its files reuse the space; docs/auditing.md says so).
   */
  dropDeletedBytes(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A commit found the checkpoint elsewhere than `expected` (another worker or a promoted rebuild
 * moved it), or asked to move it back behind `expected` (`requested`): nothing was applied.
 */
export class CheckpointMovedError extends Error {
  constructor(
    readonly projection: string,
    readonly expected: Position | null,
    readonly actual: Position | null,
    readonly requested: Position | null = null,
  ) {
    super(
      requested !== null && expected !== null && requested < expected
        ? `checkpoint of ${projection} cannot move back from ${String(expected)} to ${String(requested)}`
        : `checkpoint of ${projection} is at ${String(actual)}, expected ${String(expected)}`,
    );
    this.name = 'CheckpointMovedError';
  }
}

/** Whether a commit would move a checkpoint from `expected` back to `checkpoint`: refused by every store. */
export const movesBack = (expected: Position | null, checkpoint: Position) => expected !== null && checkpoint < expected;

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Field names come from code, but are checked anyway since adapters splice them into queries. */
export function assertFieldPath(field: string): string {
  if (!FIELD_PATH.test(field)) throw new Error(`invalid field path: ${field}`);
  return field;
}
