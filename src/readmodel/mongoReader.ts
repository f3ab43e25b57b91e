import type { Collection, Filter } from 'mongodb';
import type { Position } from '../domain/logPosition.js';
import { decodeDocument, encodeQueryValue } from './documentEncoding.js';
import type { StoredDocument } from './mongoGuardedWrites.js';
import {
  assertFieldPath,
  type CollectionName,
  type Document,
  documentOf,
  type FieldValue,
  type Identified,
  type Query,
  type ReadModelReader,
} from './readModel.js';

const LIVE: Filter<StoredDocument> = { deleted: { $ne: true } };

function isDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string';
}

function decode<Doc extends Identified = Document>(name: CollectionName<Doc>, stored: StoredDocument | null): Doc | null {
  if (stored === null || stored.deleted || stored.doc === undefined) return null;
  const doc = decodeDocument(stored.doc);
  if (!isDocument(doc)) throw new Error(`stored read-model document ${stored._id} has no id`);
  return documentOf(name, doc);
}

function whereFilter(where: Record<string, FieldValue> = {}): Filter<StoredDocument> {
  const filter: Filter<StoredDocument> = { ...LIVE };
  // Equality on null also matches a missing field, as SQLite's `IS NULL` does.
  for (const [field, value] of Object.entries(where)) filter[`doc.${assertFieldPath(field)}`] = encodeQueryValue(value);
  return filter;
}

/**
 * Reads of read-model documents in MongoDB: each in the collection `locate` finds for it, with
 * that collection's read preference. `byIdAlone`: find documents one `_id` at a time (FerretDB).
 */
export function mongoReader(
  locate: (name: string) => Promise<Collection<StoredDocument>>,
  byIdAlone: boolean,
  getCheckpoint: (projection: string) => Promise<Position | null>,
): ReadModelReader {
  return {
    async get<Doc extends Identified = Document>(name: CollectionName<Doc>, id: string) {
      return decode<Doc>(name, await (await locate(name)).findOne({ _id: id }));
    },

    async getMany<Doc extends Identified = Document>(name: CollectionName<Doc>, ids: string[]) {
      const unique = [...new Set(ids)];
      const stored = await locate(name);
      // FerretDB 1.x reads and decodes every document of the collection for `$in`, but hands a
      // filter of `_id` alone to SQLite, which stops at the match: so there, one find per id.
      const docs = byIdAlone ? await Promise.all(unique.map((id) => stored.findOne({ _id: id }))) : await stored.find({ _id: { $in: unique } }).toArray();
      const found = new Map<string, Doc>();
      for (const one of docs) {
        const doc = decode<Doc>(name, one);
        if (one !== null && doc !== null) found.set(one._id, doc);
      }
      return found;
    },

    async find<Doc extends Identified = Document>(name: CollectionName<Doc>, query: Query = {}) {
      if (query.limit === 0) return [];
      const sort: Record<string, 1 | -1> = {};
      for (const { field, direction } of query.orderBy ?? []) sort[`doc.${assertFieldPath(field)}`] = direction === 'desc' ? -1 : 1;
      sort._id = 1;
      let cursor = (await locate(name)).find(whereFilter(query.where)).sort(sort);
      if (query.offset) cursor = cursor.skip(query.offset);
      if (query.limit !== undefined) cursor = cursor.limit(query.limit);
      const docs = await cursor.toArray();
      return docs.flatMap((stored) => decode<Doc>(name, stored) ?? []);
    },

    async count(name, where) {
      return (await locate(name)).countDocuments(whereFilter(where));
    },

    getCheckpoint,
  };
}
