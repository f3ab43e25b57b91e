import { type AnyBulkWriteOperation, type Collection, MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { Position } from '../domain/logPosition.js';

/** A read-model document as stored: its position guards it; a delete leaves a tombstone. */
export interface StoredDocument {
  _id: string;
  position: Position;
  /** The document, keys escaped (documentKeys.ts); absent on a tombstone. */
  doc?: Record<string, unknown>;
  deleted?: true;
}

/** Store `replacement` as document `id` unless the stored one comes from `position` or later. */
export interface GuardedWrite {
  id: string;
  position: Position;
  replacement: Omit<StoredDocument, '_id'>;
}

const DUPLICATE_KEY = 11000;

function onlyDuplicateKeys(error: unknown): boolean {
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    return writeErrors.length > 0 && writeErrors.every((writeError) => writeError.code === DUPLICATE_KEY);
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * MongoDB: each write is one conditional replace (`position < new`), atomic on the server, sent
 * together in one round trip. A duplicate key means the upsert found no older version yet hit
 * the id: a newer version is there (leave it), or another worker inserted an older one meanwhile
 * (replace it, without upsert this time). The bulk is ordered: a write fails, or the process
 * dies, and the writes after it are not made, so what is stored is a prefix of the changes, in
 * the order the unit of work made them (a copy before the delete of its source). After a
 * duplicate key every write is redone on its own, in order; each is idempotent.
 */
export async function writeConditionally(target: Collection<StoredDocument>, writes: GuardedWrite[]): Promise<void> {
  const operations = writes.map(({ id, position, replacement }) => ({ filter: { _id: id, position: { $lt: position } }, replacement }));
  try {
    await target.bulkWrite(
      operations.map((operation): AnyBulkWriteOperation<StoredDocument> => ({ replaceOne: { ...operation, upsert: true } })),
      { ordered: true },
    );
    return;
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
  }
  for (const { filter, replacement } of operations) {
    try {
      await target.replaceOne(filter, replacement, { upsert: true });
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
      await target.replaceOne(filter, replacement);
    }
  }
}

/**
 * FerretDB 1.x: its conditional writes read, then write, anyway, and any filter other than
 * `{_id}` alone makes every write read and decode the whole collection. Even `{_id}` scans in
 * SQLite (1.24's _id index is on `->'_id'`, its queries ask for `->'$._id'`) until the match;
 * only an insert uses the index, through its unique constraint. So each write first tries to
 * insert; a duplicate key means the document is there, and only then is its position read and
 * the document replaced by `_id`. Not atomic against another worker writing the same document
 * at the same moment, exactly like FerretDB's own conditional write.
 */
export async function writeAfterReading(target: Collection<StoredDocument>, writes: GuardedWrite[]): Promise<void> {
  for (const { id, position, replacement } of writes) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await target.insertOne({ _id: id, ...replacement });
        break;
      } catch (error) {
        if (!onlyDuplicateKeys(error)) throw error;
      }
      const known = (await target.findOne({ _id: id }, { projection: { position: 1 } }))?.position;
      if (known !== undefined && known >= position) break;
      if (known !== undefined && (await target.replaceOne({ _id: id }, replacement)).matchedCount === 1) break;
      // Another worker wrote or deleted it between the read and the write: look again.
      if (attempt >= 10) throw new Error(`read-model document ${id} keeps changing under this write`);
    }
  }
}
