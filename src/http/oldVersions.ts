import { tooManyRequests, unavailable } from '../domain/errors.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { type MatchAtRevision, readMatchAt } from '../history/historyQueries.js';
import { createFairGate, type GateBounds } from '../platform/fairGate.js';
import { createLru } from '../platform/lru.js';
import { matchOfVersionKey, versionKey } from './renderedKeys.js';

/** A stage of work that shares the event loop's turns (src/platform/turnBudget.ts). */
export type Stage = <T>(work: () => T | Promise<T>) => Promise<T>;

export interface OldVersionLimits {
  /** Reads of old versions per client address: one runs, the others wait behind it; beyond, 429. */
  perAddress: GateBounds;
  /** Reads of old versions in all: a few run (their stages take turns), the others wait; beyond, 503. */
  total: GateBounds;
}

/** docs/limits.md: old revisions. */
export const OLD_VERSION_LIMITS: OldVersionLimits = { perAddress: { running: 1, waiting: 3 }, total: { running: 2, waiting: 32 } };

/** Seconds a refused client is asked to wait: a read of an old version takes tens of milliseconds. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Reads of a match as it was at a revision (`?revision=N` of the API and the page), which
 * rebuild an old version from its keyframe and deltas in the log: each read of the log is a
 * stage of the shared turn budget, so /healthz and other requests are answered between them;
 * reads run per client address one after another and a few at a time in all (OLD_VERSION_LIMITS),
 * so one client asking for many versions waits behind its own reads, not in front of everyone's;
 * a read already under way for the same match and revision is joined. The version an asked
 * revision resolves to is remembered (the log only grows, so it never changes): a kept body of
 * that version is then served without reading the log.
 */
export function createOldVersions(stage: Stage, limits: OldVersionLimits = OLD_VERSION_LIMITS) {
  const gate = createFairGate({ perKey: limits.perAddress, total: limits.total });
  const resolved = createLru<number>(10_000);
  const reading = new Map<string, Promise<MatchAtRevision>>();
  const refuse = (by: 'key' | 'total') =>
    by === 'key'
      ? tooManyRequests(`too many old revisions asked at once from your address; retry in ${RETRY_AFTER_SECONDS} s`, RETRY_AFTER_SECONDS)
      : unavailable(`too many old revisions are being read at once; retry in ${RETRY_AFTER_SECONDS} s`, RETRY_AFTER_SECONDS);

  async function readNow(eventStore: Pick<EventStore, 'readStream'>, address: string, id: string, revision: number): Promise<MatchAtRevision> {
    const staged: Pick<EventStore, 'readStream'> = { readStream: (streamId, options) => stage(() => eventStore.readStream(streamId, options)) };
    const old = await gate.run(address, () => readMatchAt(staged, id, revision), refuse);
    resolved.set(versionKey(id, revision), old.version.revision);
    return old;
  }

  return {
    /** The version revision `revision` of match `id` resolved to when it was last read, if remembered. */
    resolvedVersion: (id: string, revision: number): number | undefined => resolved.get(versionKey(id, revision)),
    /** The match at `revision`, read for a client at `address` within the bounds (DomainError 429 or 503 beyond them). */
    async read(eventStore: Pick<EventStore, 'readStream'>, address: string, id: string, revision: number): Promise<MatchAtRevision> {
      const asked = versionKey(id, revision);
      const pending = reading.get(asked);
      if (pending !== undefined) return pending;
      const made = readNow(eventStore, address, id, revision);
      reading.set(asked, made);
      try {
        return await made;
      } finally {
        reading.delete(asked);
      }
    },
    /** Forgets what the match's revisions resolved to (after its erasure). */
    forgetMatch(id: string) {
      resolved.deleteWhere((key) => matchOfVersionKey(key) === id);
    },
    /** Addresses with reads running or waiting. */
    addressesReading: () => gate.keys(),
  };
}
