import type { AnyDocument, ProjectionCommit, ReadModelReader } from '../src/readmodel/readModel.js';

/** The most a kept document may weigh: a large payload's history basis (up to ~1.3 MB of text) is read from the store. */
const MAX_DOCUMENT_BYTES = 64 * 1024;

/**
 * Roughly the bytes of a document's JSON (strings by their length, other values a few bytes
 * each), counted until past `limit`: a large document costs a few steps, not a walk of it all.
 */
function roughBytes(doc: unknown, limit: number): number {
  const pending: unknown[] = [doc];
  let bytes = 0;
  while (pending.length > 0 && bytes <= limit) {
    const value = pending.pop();
    if (typeof value === 'string') bytes += value.length + 2;
    else if (typeof value !== 'object' || value === null) bytes += 8;
    else if (Array.isArray(value)) {
      bytes += 2 + value.length;
      for (const item of value) pending.push(item);
    } else {
      // for…in, not Object.entries: a 10 KB history basis in 3 µs, not 22.
      const members = value as Record<string, unknown>;
      for (const name in members) {
        bytes += name.length + 4;
        pending.push(members[name]);
      }
    }
  }
  return bytes;
}

/**
 * The documents a runner's pass committed last, so that its next batches read them without the
 * store: a live match's next version reads back what its previous one committed a moment before
 * (its history's diff basis, ~7 KB, and its public view: ~50 µs of a live upload's main thread).
 * At most `maxBytes` of them, roughly counted, none above MAX_DOCUMENT_BYTES, the oldest let go
 * first (a match day's 1,500 matches cycle through more than that, and read from the store as
 * before; a few hundred busy matches stay here).
 *
 * Correct only where a commit applies every change it is given and nothing else writes the
 * collections meanwhile: a store committing documents and checkpoints in one transaction
 * (SQLite), and one pass of one runner. A pass ends when another process moves a checkpoint (its
 * commit is refused, or its watch sees it), and the next pass starts with none kept. MongoDB
 * commits a prefix when interrupted, so a replay may meet documents newer than its changes
 * that the store keeps over them: no documents are kept there (the engine gives none).
 */
export function committedDocuments(reader: ReadModelReader, maxBytes: number) {
  /** By collection and id, with their rough bytes; null for a document the pass deleted. */
  const kept = new Map<string, { doc: AnyDocument | null; bytes: number }>();
  let keptBytes = 0;
  const forget = (at: string) => {
    const entry = kept.get(at);
    if (entry === undefined) return;
    keptBytes -= entry.bytes;
    kept.delete(at);
  };
  const key = (collection: string, id: string) => `${collection}\0${id}`;

  const keptReader: ReadModelReader = {
    find: (collection, query) => reader.find(collection, query),
    count: (collection, where) => reader.count(collection, where),
    getCheckpoint: (projection) => reader.getCheckpoint(projection),
    async get(collection, id) {
      const entry = kept.get(key(collection, id));
      return entry === undefined ? reader.get(collection, id) : (entry.doc as never);
    },
    async getMany(collection, ids) {
      const found = new Map();
      const missing: string[] = [];
      for (const id of ids) {
        const entry = kept.get(key(collection, id));
        if (entry === undefined) missing.push(id);
        else if (entry.doc !== null) found.set(id, entry.doc);
      }
      if (missing.length > 0) for (const [id, doc] of await reader.getMany(collection, missing)) found.set(id, doc);
      return found;
    },
  };

  return {
    reader: keptReader,
    /** Keeps what a commit (all of it applied) wrote, newest last. */
    committed(commits: readonly ProjectionCommit[]) {
      for (const { changes } of commits)
        for (const { collection, id, doc } of changes) {
          const at = key(collection, id);
          forget(at);
          const bytes = roughBytes(doc, MAX_DOCUMENT_BYTES);
          if (bytes > MAX_DOCUMENT_BYTES) continue;
          kept.set(at, { doc, bytes });
          keptBytes += bytes;
          while (keptBytes > maxBytes) forget(kept.keys().next().value!);
        }
    },
  };
}

export type CommittedDocuments = ReturnType<typeof committedDocuments>;
