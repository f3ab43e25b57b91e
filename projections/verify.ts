import type { EventStore } from '../src/eventstore/eventStore.js';
import type { Document, ReadModelReader, ReadModelStore } from '../src/readmodel/readModel.js';
import type { Projection } from './projection.js';
import { replayUntil } from './replay.js';
import { isRecord } from '../src/platform/isRecord.js';

export interface Difference {
  collection: string;
  id: string;
  problem: 'missing from the read model' | 'not derived from the log' | 'differs';
  /** For `differs`: the first field that differs, and both values. */
  path?: string;
  live?: unknown;
  fromLog?: unknown;
}

/** The first path at which two JSON values differ, or null when they are equal. */
function firstDifference(a: unknown, b: unknown, path = ''): { path: string; a: unknown; b: unknown } | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  const within = (key: string) => (path ? `${path}.${key}` : key);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      const found = firstDifference(a[i], b[i], within(String(i)));
      if (found) return found;
    }
  }
  if (isRecord(a) && isRecord(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], within(key));
      if (found) return found;
    }
  }
  return { path: path || '(document)', a, b };
}

/** Both adapters order ids by their UTF-8 bytes; JavaScript's `<` compares UTF-16 units. */
const before = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;

/** Walks two collections in id order, a page at a time, and reports every difference. */
async function compareCollection(collection: string, live: ReadModelReader, fromLog: ReadModelReader, pageSize = 200): Promise<Difference[]> {
  const differences: Difference[] = [];
  const pages = async function* (reader: ReadModelReader): AsyncGenerator<Document> {
    for (let offset = 0; ; offset += pageSize) {
      const docs = await reader.find(collection, { limit: pageSize, offset });
      yield* docs;
      if (docs.length < pageSize) return;
    }
  };
  const a = pages(live);
  const b = pages(fromLog);
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && before(x.value.id, y.value.id))) {
      if (!x.done) differences.push({ collection, id: x.value.id, problem: 'not derived from the log' });
      x = await a.next();
    } else if (x.done || before(y.value.id, x.value.id)) {
      differences.push({ collection, id: y.value.id, problem: 'missing from the read model' });
      y = await b.next();
    } else {
      const found = firstDifference(x.value, y.value);
      if (found) differences.push({ collection, id: x.value.id, problem: 'differs', path: found.path, live: found.a, fromLog: found.b });
      x = await a.next();
      y = await b.next();
    }
  }
  return differences;
}

/**
 * The auditor's proof: replays the whole log into `scratch` and compares every document with
 * the live read model at the same checkpoint. When the live model moves on while we compare
 * (a running service), the scratch copy catches up to it and the comparison is repeated, a
 * few times at most; what still differs after that is reported.
 */
export async function verifyProjection(
  projection: Projection,
  eventStore: EventStore,
  live: ReadModelStore,
  scratch: ReadModelStore,
  attempts = 5,
): Promise<{ checkpoint: number | null; differences: Difference[] }> {
  let differences: Difference[] = [];
  let checkpoint: number | null = null;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    checkpoint = await live.getCheckpoint(projection.name);
    await replayUntil(projection, eventStore, scratch, checkpoint);
    differences = [];
    for (const collection of projection.collections) differences.push(...(await compareCollection(collection, live, scratch)));
    const after = await live.getCheckpoint(projection.name);
    if (differences.length === 0 || after === checkpoint) break;
  }
  return { checkpoint, differences };
}
