import { connectEsdb, type EsdbConnection } from './esdbConnection.js';
import { createEsdbDigests } from './esdbDigests.js';
import { createEsdbErasure } from './esdbErasure.js';
import { createEsdbKeys } from './esdbKeys.js';
import { createEsdbReads } from './esdbReads.js';
import { subscribeToEsdbAll } from './esdbSubscription.js';
import { createEsdbVersions } from './esdbVersions.js';
import { createEsdbWrites } from './esdbWrites.js';
import { invalidAppend } from './eventChecks.js';
import type { AllSubscription, EventStore } from './eventStore.js';
import { DEFAULT_DELTA_OPTIONS, type DeltaOptions } from './storedVersions.js';
import { namedWithPrefix, SERVICE_STREAM_PREFIXES } from './streamPrefixes.js';
import { createVersionCache } from './versionCache.js';

export interface EsdbLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EsdbEventStoreOptions {
  /** The server's MaxAppendSize in bytes (EventStoreDB's default is 1 MiB). */
  maxAppendBytes?: number;
  /** Streams delivered by readAll, headPosition and subscribeToAll; the service's by default. */
  streamPrefixes?: readonly string[];
  /** First wait before resubscribing after a dropped subscription; doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * Servers before EventStoreDB 23.10 never say a subscription caught up; after this long
   * without events the subscription compares its position with the head of the log itself.
   */
  caughtUpProbeMs?: number;
  /** Attempts in all for an append the server did not answer (same ids, same expected revision). */
  appendAttempts?: number;
  /** First wait before such an attempt; doubles. */
  appendRetryDelayMs?: number;
  logger?: EsdbLogger;
  /** How versions are stored (./storedVersions.ts). */
  deltas?: DeltaOptions;
  /** How long a match stream's key, once read, is used before it is read again (another process's erasure is seen after at most this). */
  keyRecheckMs?: number;
}

/**
 * The event store on EventStoreDB / KurrentDB (gRPC, @eventstore/db-client 6), selected by an
 * `esdb://` or `esdb+discover://` EVENT_STORE_URL that carries TLS settings and credentials.
 *
 * Durability: an append resolves once the leader has committed it to a quorum of nodes.
 * Idempotency: event ids come from the caller; appending the same ids with the same expected
 * revision again is recognised by the server and returns the first result. An append without
 * an answer is made again that way (./esdbAppend.ts); the URL's `defaultDeadline` (10 s)
 * bounds each attempt and every read.
 * Size: the server refuses appends above its MaxAppendSize (default 1 MiB; counted as data +
 * metadata + twice the event type's length per event); such appends are refused here before
 * anything is sent, with AppendTooLargeError. Single events have no limit of their own below
 * the log's record size (16 MiB) unless the server sets MaxAppendEventSize.
 * Storage: versions are stored as SQLite stores them (deltas against the stream's previous
 * version, keyframes every K; ./esdbVersions.ts), and the data of match streams is sealed with
 * the match's own key (./esdbKeys.ts), which erasePayloads deletes. Reads give whole data.
 * Appends: ./esdbWrites.ts; reads: ./esdbReads.ts; erasure: ./esdbErasure.ts.
 */
export function openEsdbEventStore(url: string, options: EsdbEventStoreOptions = {}): EventStore {
  return createEsdbEventStore(connectEsdb(url), options);
}

/** The store over a connection: openEsdbEventStore's, or one to a stand-in client in tests. */
export function createEsdbEventStore(connection: EsdbConnection, options: EsdbEventStoreOptions = {}): EventStore {
  const { client, deadlineMs } = connection;
  const calls = {
    credentials: connection.appendCredentials,
    deadlineMs,
    attempts: options.appendAttempts ?? 3,
    retryDelayMs: options.appendRetryDelayMs ?? 100,
  };
  const maxAppendBytes = options.maxAppendBytes ?? 1024 * 1024;
  const prefixes = [...(options.streamPrefixes ?? SERVICE_STREAM_PREFIXES)];
  const retry = { retryDelayMs: options.retryDelayMs ?? 200, maxRetryDelayMs: options.maxRetryDelayMs ?? 10_000 };
  const caughtUpProbeMs = options.caughtUpProbeMs ?? 1000;
  const reads = createEsdbReads(client, namedWithPrefix(prefixes), deadlineMs);
  const deltas = options.deltas ?? DEFAULT_DELTA_OPTIONS;
  const keys = createEsdbKeys(client, calls, { recheckMs: options.keyRecheckMs ?? 60_000, maxKeys: 10_000 });
  const digests = createEsdbDigests(client, calls);
  const versions = createEsdbVersions({
    readStored: reads.readStored,
    keys,
    digests,
    versions: createVersionCache(deltas.cacheBytes),
    keyframeInterval: deltas.keyframeInterval,
  });
  const decode = versions.decode;
  const append = createEsdbWrites({ client, calls, keys, versions, maxAppendBytes });
  const subscriptions = new Set<AllSubscription>();
  let closed = false;

  return {
    positionUnit: 'byte',

    async appendToStream(streamId, events, expectedRevision) {
      if (closed) throw new Error('event store is closed');
      const invalid = invalidAppend(streamId, events);
      if (invalid) throw invalid;
      return append(streamId, events, expectedRevision);
    },

    readStream: (streamId, options) => reads.readStream(versions, streamId, options),
    readAll: (options) => reads.readAll(versions, options),
    headPosition: reads.headPosition,

    erasePayloads: createEsdbErasure({ reads, keys, digests, versions, keyframeInterval: deltas.keyframeInterval, logger: options.logger }),

    subscribeToAll({ after, batchSize = 100 }) {
      const deps = {
        client,
        prefixes,
        headPosition: reads.headPosition,
        decode,
        retry,
        caughtUpProbeMs,
        logger: options.logger,
        onClose: () => subscriptions.delete(subscription),
      };
      const subscription = subscribeToEsdbAll(deps, { after, batchSize });
      // One asked for after the store closed ends at once, as the store's own would have.
      if (closed) void subscription.close();
      else subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      versions.clear();
      keys.clear();
      digests.clear();
      await client.dispose();
    },
  };
}
