import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  BACKWARDS,
  type BinaryEventData,
  END,
  EventStoreDBClient,
  FORWARDS,
  MaxAppendSizeExceededError,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
  START,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { redactUrl, urlPassword } from '../platform/redactUrl.js';
import {
  AppendTooLargeError,
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
  type SubscriptionItem,
  WrongExpectedRevisionError,
} from './eventStore.js';
import { SERVICE_STREAM_PREFIXES } from './streamPrefixes.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';

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
  logger?: EsdbLogger;
}

/** Connection-string options of @eventstore/db-client 6 (lower case, as it compares them). */
const KNOWN_OPTIONS = new Set(
  [
    'connectionName',
    'maxDiscoverAttempts',
    'discoveryInterval',
    'gossipTimeout',
    'nodePreference',
    'tls',
    'tlsVerifyCert',
    'tlsCAFile',
    'userCertFile',
    'userKeyFile',
    'defaultDeadline',
    'keepAliveInterval',
    'keepAliveTimeout',
    'throwOnAppendFailure',
  ].map((key) => key.toLowerCase()),
);

/**
 * Checks the connection string before the client sees it: the client prints the whole string,
 * password included, to stderr for an unknown option, and puts it in its parse errors.
 */
function checkConnectionString(url: string): void {
  const query = url.split('?')[1] ?? '';
  for (const pair of query.split('&').filter(Boolean)) {
    const [rawKey = '', rawValue = ''] = pair.split('=');
    const key = rawKey.trim().toLowerCase();
    const value = rawValue.trim().toLowerCase();
    if (!KNOWN_OPTIONS.has(key)) throw new Error(`EVENT_STORE_URL has an unknown option "${rawKey}" (${redactUrl(url)})`);
    // The client ignores it (and says so on stderr); certificates are trusted with tlsCAFile instead.
    if (key === 'tlsverifycert' && value === 'false') throw new Error('EVENT_STORE_URL: tlsVerifyCert=false is not supported by the client; pass tlsCAFile');
    // Without throwing, the client misreports the current revision of batch appends that conflict.
    if (key === 'throwonappendfailure' && value === 'false') throw new Error('EVENT_STORE_URL: throwOnAppendFailure=false is not supported');
  }
}

function connect(url: string): EventStoreDBClient {
  checkConnectionString(url);
  try {
    return EventStoreDBClient.connectionString(url);
  } catch (error) {
    const password = urlPassword(url);
    const message = error instanceof Error ? error.message : String(error);
    const safe = password === null ? message : message.split(password).join('***');
    throw new Error(`EVENT_STORE_URL is not a valid EventStoreDB connection string: ${safe}`);
  }
}

const encoder = new TextEncoder();

/** Revisions and positions are 64-bit on the server; the port uses JS numbers (see port.ts). */
function toNumber(value: bigint, what: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`EventStoreDB ${what} ${value} does not fit a JS number`);
  return number;
}

/**
 * Every event appended with one request is its own committed record (prepare flagged
 * IsCommitted, EventStoreDB 20+), so its commit position equals its prepare position and is
 * unique: one number is enough to resume after it.
 */
const esdbPosition = (position: Position): EsdbPosition => ({ commit: BigInt(position), prepare: BigInt(position) });

function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return 'no_stream';
  if (expected === 'any') return 'any';
  return BigInt(expected);
}

function metadataOf(raw: unknown, id: string): EventMetadata {
  if (typeof raw !== 'object' || raw === null || raw instanceof Uint8Array) throw new Error(`event ${id} has no readable metadata`);
  if (!('schemaVersion' in raw) || typeof raw.schemaVersion !== 'number') throw new Error(`event ${id} has no metadata schemaVersion`);
  return {
    ...('requestId' in raw && typeof raw.requestId === 'string' ? { requestId: raw.requestId } : {}),
    ...('clientAddressClass' in raw && typeof raw.clientAddressClass === 'string' ? { clientAddressClass: raw.clientAddressClass } : {}),
    schemaVersion: raw.schemaVersion,
  };
}

/**
 * Events are stored as bytes (content type application/octet-stream) holding the JSON text:
 * the client re-serialises data marked JSON on the way in and parses it on the way out, which
 * would not keep the text byte for byte. Events marked JSON by other writers are re-serialised.
 */
function dataText(event: EsdbRecordedEvent): string {
  if (event.data instanceof Uint8Array) return Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength).toString('utf8');
  return JSON.stringify(event.data);
}

function toRecorded(event: EsdbRecordedEvent, commitPosition?: bigint): RecordedEvent {
  const position = event.position?.commit ?? commitPosition;
  if (position === undefined) throw new Error('EventStoreDB returned an event without its position: use EventStoreDB 22.6 or later');
  return {
    id: event.id,
    streamId: event.streamId,
    revision: toNumber(event.revision, 'revision'),
    position: toNumber(position, 'position'),
    type: event.type,
    data: dataText(event),
    metadata: metadataOf(event.metadata, event.id),
    recordedAt: event.created.toISOString(),
  };
}

/**
 * The event store on EventStoreDB / KurrentDB (gRPC, @eventstore/db-client 6), selected by an
 * `esdb://` or `esdb+discover://` EVENT_STORE_URL that carries TLS settings and credentials.
 *
 * Durability: an append resolves once the leader has committed it to a quorum of nodes.
 * Idempotency: event ids come from the caller; appending the same ids at the same place again
 * is recognised by the server and returns the first result.
 * Size: the server refuses appends above its MaxAppendSize (default 1 MiB; counted as data +
 * metadata + twice the event type's length per event); such appends are refused here before
 * anything is sent, with AppendTooLargeError. Single events have no limit of their own below
 * the log's record size (16 MiB) unless the server sets MaxAppendEventSize.
 */
export function openEsdbEventStore(url: string, options: EsdbEventStoreOptions = {}): EventStore {
  const client = connect(url);
  const maxAppendBytes = options.maxAppendBytes ?? 1024 * 1024;
  const prefixes = [...(options.streamPrefixes ?? SERVICE_STREAM_PREFIXES)];
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const caughtUpProbeMs = options.caughtUpProbeMs ?? 1000;
  const ours = (streamId: string) => prefixes.some((prefix) => streamId.startsWith(prefix));
  const subscriptions = new Set<AllSubscription>();
  let closed = false;

  /** Where the last event of a stream is in the log; for appends answered without a position. */
  async function positionOfRevision(streamId: string, revision: number): Promise<Position> {
    for await (const resolved of client.readStream(streamId, { fromRevision: BigInt(revision), direction: FORWARDS, maxCount: 1 })) {
      if (resolved.event) return toRecorded(resolved.event, resolved.commitPosition).position;
    }
    throw new Error(`EventStoreDB did not return ${streamId}@${revision} just appended`);
  }

  async function headPosition(): Promise<Position | null> {
    const read = client.readAll({ fromPosition: END, direction: BACKWARDS });
    try {
      for await (const resolved of read) {
        if (resolved.event && ours(resolved.event.streamId)) return toNumber(resolved.event.position.commit, 'position');
      }
      return null;
    } finally {
      await read.cancel();
    }
  }

  const store: EventStore = {
    positionUnit: 'byte',

    async appendToStream(streamId, events, expectedRevision): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      const encoded = events.map((event) => ({
        event,
        data: encoder.encode(event.data),
        metadata: encoder.encode(JSON.stringify(event.metadata)),
      }));
      // The server's own measure (Event.SizeOnDisk): data + metadata + 2 bytes per type character.
      const bytes = encoded.reduce((sum, { event, data, metadata }) => sum + data.byteLength + metadata.byteLength + event.type.length * 2, 0);
      if (bytes > maxAppendBytes) throw new AppendTooLargeError(streamId, bytes, maxAppendBytes);
      const proposed: BinaryEventData[] = encoded.map(({ event, data, metadata }) => ({
        id: event.id,
        contentType: 'application/octet-stream',
        type: event.type,
        data,
        metadata,
      }));
      let result;
      try {
        result = await client.appendToStream(streamId, proposed, { expectedRevision: toExpected(expectedRevision) });
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === 'no_stream' ? 'no_stream' : toNumber(error.actualVersion, 'revision');
          throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
        }
        if (error instanceof MaxAppendSizeExceededError) throw new AppendTooLargeError(streamId, bytes, error.maxAppendSize);
        throw error;
      }
      const revision = toNumber(result.nextExpectedRevision, 'revision');
      // The answer's commit position is the last event's; idempotent repeats on some versions have none.
      const commit = result.position?.commit;
      const position = commit !== undefined && commit >= 0n ? toNumber(commit, 'position') : await positionOfRevision(streamId, revision);
      return { nextExpectedRevision: revision, position };
    },

    async readStream(streamId, { fromRevision, direction = 'forwards', maxCount } = {}) {
      const events: RecordedEvent[] = [];
      try {
        const read = client.readStream(streamId, {
          direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
          fromRevision: fromRevision === undefined ? (direction === 'forwards' ? START : END) : BigInt(fromRevision),
          ...(maxCount === undefined ? {} : { maxCount }),
        });
        for await (const resolved of read) {
          if (resolved.event) events.push(toRecorded(resolved.event, resolved.commitPosition));
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return events;
    },

    async readAll({ after, maxCount }) {
      const events: RecordedEvent[] = [];
      if (maxCount <= 0) return events;
      // Reads from a position include the event there; ours are filtered out of everything else.
      const read = client.readAll({ fromPosition: after === null ? START : esdbPosition(after), direction: FORWARDS });
      try {
        for await (const resolved of read) {
          const event = resolved.event;
          if (!event || !ours(event.streamId)) continue;
          const recorded = toRecorded(event);
          if (after !== null && recorded.position <= after) continue;
          events.push(recorded);
          if (events.length >= maxCount) break;
        }
      } finally {
        await read.cancel();
      }
      return events;
    },

    headPosition,

    subscribeToAll({ after, batchSize = 100 }) {
      let position: Position | null = after;
      let stopped = false;
      let current: AllStreamSubscription | null = null;
      const { sleep, wake } = wakeableSleep();

      /** One server subscription from `position`, until it drops (throws) or is closed. */
      async function* follow(): AsyncGenerator<SubscriptionItem> {
        const subscription = client.subscribeToAll({
          fromPosition: position === null ? START : esdbPosition(position),
          filter: streamNameFilter({ prefixes }),
        });
        current = subscription;
        let serverCaughtUp = false;
        let announced = false;
        let failure: Error | null = null;
        let ended = false;
        subscription.on('caughtUp', () => {
          serverCaughtUp = true;
          wake();
        });
        subscription.on('fellBehind', () => {
          serverCaughtUp = false;
        });
        subscription.on('readable', () => wake());
        subscription.on('error', (error: Error) => {
          failure = error;
          wake();
        });
        subscription.on('end', () => {
          ended = true;
          wake();
        });
        try {
          while (!stopped) {
            const batch: RecordedEvent[] = [];
            while (batch.length < batchSize) {
              const resolved: AllStreamResolvedEvent | null = subscription.read();
              if (resolved === null) break;
              const event = resolved.event;
              if (!event || !ours(event.streamId)) continue;
              const recorded = toRecorded(event);
              // From a position the server starts after it; anything at or before it is a repeat.
              if (position !== null && recorded.position <= position) continue;
              batch.push(recorded);
            }
            const last = batch.at(-1);
            if (last) {
              position = last.position;
              announced = false;
              yield { kind: 'events', events: batch };
              continue;
            }
            if (failure) throw failure;
            if (ended) throw new Error('EventStoreDB ended the subscription');
            // Everything the server sent before saying "caught up" has been delivered now.
            if (serverCaughtUp && !announced) {
              announced = true;
              yield { kind: 'caughtUp', position };
              continue;
            }
            await sleep(caughtUpProbeMs);
            if (!serverCaughtUp && !stopped && subscription.readableLength === 0 && !failure && !ended) {
              const head = await headPosition();
              if (head === null || (position !== null && head <= position)) serverCaughtUp = true;
            }
          }
        } finally {
          current = null;
          await subscription.unsubscribe();
        }
      }

      async function* items(): AsyncGenerator<SubscriptionItem> {
        let delay = retryDelayMs;
        while (!stopped && !closed) {
          try {
            for await (const item of follow()) {
              delay = retryDelayMs;
              yield item;
            }
          } catch (error) {
            if (stopped || closed) return;
            options.logger?.error({ err: error, position, retryInMs: delay }, 'EventStoreDB subscription dropped; resubscribing');
            await sleep(delay);
            delay = Math.min(delay * 2, maxRetryDelayMs);
          }
        }
      }

      const subscription: AllSubscription = {
        [Symbol.asyncIterator]: items,
        async close() {
          stopped = true;
          subscriptions.delete(subscription);
          wake();
          await current?.unsubscribe();
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await client.dispose();
    },
  };
  return store;
}
