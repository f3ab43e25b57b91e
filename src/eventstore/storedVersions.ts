import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { applyDelta, BadDeltaError, makeDelta } from './fossilDelta.js';
import { ERASED_DATA, type Revision } from './eventStore.js';

/**
 * How an event's data is stored, apart from what it means (docs/decisions.md: storage
 * encodings). The port's events always carry their whole data; an adapter stores a stream's
 * versions (events of at least MIN_VERSION_BYTES, in practice a match's payloads) as:
 * - `null`: the data as given: every event before this encoding, small events, and keyframes
 *   that are the stream's first version (a create costs what it did);
 * - `deflate`: a later keyframe, deflated (zlib level 1);
 * - `delta`: a Fossil delta (./fossilDelta.ts) against the stream's previous version,
 *   `baseRevision`; at most `keyframeInterval - 1` deltas follow a keyframe, as git bounds
 *   its delta chains, so any version is rebuilt from at most that many steps;
 * - `erased`: the data was erased (EventStore.erasePayloads): nothing is left of it, and no
 *   delta has it as its base (a delta built on an erased version is erased with it).
 */
export type StoredEncoding = 'deflate' | 'delta' | 'erased';

/** Events smaller than this are stored as given and are never a delta's base. */
export const MIN_VERSION_BYTES = 1024;

/**
 * Most bytes a delta is matched over (what differs between the versions' common prefix and
 * suffix); beyond it the version is a keyframe. Fossil's matcher costs ~0.6 µs a byte of one core,
 * so a 3 MB version changed all through would block the write path for seconds.
 */
const MAX_DELTA_MATCHED_BYTES = 256 * 1024;

export interface DeltaOptions {
  /** A keyframe at least every this many versions of a stream (K); 1: every version a keyframe; 0: versions stored as given (as before deltas). */
  keyframeInterval: number;
  /** Bytes of whole versions kept to make and read deltas without going back to the keyframe. */
  cacheBytes: number;
}

export const DEFAULT_DELTA_OPTIONS: DeltaOptions = { keyframeInterval: 32, cacheBytes: 32 * 1024 * 1024 };

export interface StoredData {
  data: string | Buffer;
  encoding: StoredEncoding | null;
  baseRevision: Revision | null;
}

/** The stream's newest version, which the next one is stored against. */
export interface VersionTip {
  revision: Revision;
  /** Deltas between it and its keyframe: 0 for a keyframe. */
  depth: number;
  /**
   * Its bytes; a stream's first version keeps its text instead, encoded only if a version is
   * stored against it in the same append. Most matches are never replaced: a create neither
   * encodes its payload nor fills the version cache, and a stream's first replace reads its
   * base back once.
   */
  bytes: Buffer | string;
}

/** A tip's bytes for the version cache: none for a first version that kept its text. */
export const cacheableBytes = (tip: VersionTip): Buffer | null => (typeof tip.bytes === 'string' ? null : tip.bytes);

/** The event at `revision` as it is stored, and the stream's newest version after it. */
export function encodeVersion(
  text: string,
  revision: Revision,
  previous: VersionTip | null,
  keyframeInterval: number,
): { stored: StoredData; tip: VersionTip | null } {
  if (text.length < MIN_VERSION_BYTES || keyframeInterval === 0) return { stored: { data: text, encoding: null, baseRevision: null }, tip: previous };
  if (previous === null) return { stored: { data: text, encoding: null, baseRevision: null }, tip: { revision, depth: 0, bytes: text } };
  const bytes = Buffer.from(text);
  if (previous.depth + 1 < keyframeInterval) {
    const delta = makeDelta(typeof previous.bytes === 'string' ? Buffer.from(previous.bytes) : previous.bytes, bytes, MAX_DELTA_MATCHED_BYTES);
    // A delta above half the version would make reads rebuild much for little gain.
    if (delta !== null && delta.length * 2 <= bytes.length) {
      return { stored: { data: delta, encoding: 'delta', baseRevision: previous.revision }, tip: { revision, depth: previous.depth + 1, bytes } };
    }
  }
  const deflated = deflateRawSync(bytes, { level: 1 });
  const stored: StoredData =
    deflated.length < bytes.length ? { data: deflated, encoding: 'deflate', baseRevision: null } : { data: text, encoding: null, baseRevision: null };
  return { stored, tip: { revision, depth: 0, bytes } };
}

/** An event as a store read it: its data perhaps encoded. */
export interface StoredEvent {
  streamId: string;
  revision: Revision;
  stored: StoredData;
}

/** Why an encoded event cannot be given whole. */
export class UndecodableVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly revision: Revision,
    problem: string,
  ) {
    super(`${streamId} revision ${revision}: ${problem}`);
    this.name = 'UndecodableVersionError';
  }
}

const baseKey = (streamId: string, revision: Revision) => `${revision}\u0000${streamId}`;

/**
 * The whole data of events read from a store, given in ascending revision within each stream
 * (global order does). A delta's base is taken from the events before it in `events`, else
 * from `baseOf` (a cache, or the log back to the keyframe). `remember` is told each version
 * decoded here, the newest of its stream last, so the next read can start from it.
 */
export function wholeData(
  events: readonly StoredEvent[],
  baseOf: (streamId: string, revision: Revision) => Buffer,
  remember: (streamId: string, revision: Revision, bytes: Buffer) => void = () => {},
): string[] {
  const referenced = new Set<string>();
  for (const { streamId, stored } of events)
    if (stored.encoding === 'delta' && stored.baseRevision !== null) referenced.add(baseKey(streamId, stored.baseRevision));
  const local = new Map<string, Buffer>();
  return events.map(({ streamId, revision, stored }) => {
    if (stored.encoding === 'erased') return ERASED_DATA;
    if (stored.encoding === null) {
      const text = typeof stored.data === 'string' ? stored.data : stored.data.toString('utf8');
      if (referenced.has(baseKey(streamId, revision))) local.set(baseKey(streamId, revision), Buffer.from(text));
      return text;
    }
    const bytes = decodeBytes(streamId, revision, stored, (base) => local.get(baseKey(streamId, base)) ?? baseOf(streamId, base));
    if (referenced.has(baseKey(streamId, revision))) local.set(baseKey(streamId, revision), bytes);
    remember(streamId, revision, bytes);
    return bytes.toString('utf8');
  });
}

/** The bytes of one encoded version, its base (for a delta) given by `base`; a delta's checksum checked unless `verify` is false (./deltaChain.ts). */
export function decodeBytes(streamId: string, revision: Revision, stored: StoredData, base: (revision: Revision) => Buffer, verify = true): Buffer {
  const data = typeof stored.data === 'string' ? Buffer.from(stored.data) : stored.data;
  if (stored.encoding === null) return data;
  try {
    if (stored.encoding === 'erased') throw new Error('the version was erased');
    if (stored.encoding === 'deflate') return inflateRawSync(data);
    if (stored.baseRevision === null || stored.baseRevision >= revision) throw new Error('a delta without an earlier base');
    return applyDelta(base(stored.baseRevision), data, verify);
  } catch (error) {
    if (error instanceof UndecodableVersionError) throw error;
    const problem = error instanceof BadDeltaError ? error.message : `${stored.encoding}: ${error instanceof Error ? error.message : String(error)}`;
    throw new UndecodableVersionError(streamId, revision, problem);
  }
}

/** The encoding a store read back, or an error for one this code does not know. */
export function storedEncoding(value: unknown, streamId: string, revision: Revision): StoredEncoding | null {
  if (value === null || value === undefined) return null;
  if (value === 'deflate' || value === 'delta' || value === 'erased') return value;
  throw new UndecodableVersionError(streamId, revision, `unknown stored encoding ${JSON.stringify(value)}`);
}
