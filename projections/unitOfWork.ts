import type { Position } from '../src/eventstore/port.js';
import type { Document, DocumentChange, ReadModelReader } from '../src/readmodel/port.js';
import type { ProjectionView } from './projection.js';

/**
 * Collects a batch's document changes in memory; reads see the batch's own earlier writes.
 * The runner commits `changes()` together with the checkpoint. Documents are values: a
 * projection builds a new one to change it rather than mutating what `get` returned.
 */
export function createUnitOfWork(reader: ReadModelReader) {
  const pending = new Map<string, DocumentChange>();
  const key = (collection: string, id: string) => `${collection}\0${id}`;

  function viewAt(position: Position): ProjectionView {
    return {
      async get(collection, id) {
        const change = pending.get(key(collection, id));
        if (change) return change.doc;
        return reader.get(collection, id);
      },
      put(collection, doc: Document) {
        pending.set(key(collection, doc.id), { collection, id: doc.id, doc, position });
      },
      delete(collection, id) {
        pending.set(key(collection, id), { collection, id, doc: null, position });
      },
    };
  }

  return { viewAt, changes: () => [...pending.values()] };
}
