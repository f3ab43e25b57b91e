import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import {
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  DeadlineExceededError,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { EsdbClient, EsdbRead, EsdbServerSubscription } from '../../src/eventstore/esdbClient.js';

/**
 * A stand-in EventStoreDB for the adapter's tests: no server can be installed on these
 * machines. It keeps streams and one log in memory and answers as client 6.2.1 does (read in
 * node_modules/@eventstore/db-client/dist): expected revisions, repeats recognised by event
 * id at the expected revision first used, StreamNotFoundError and StreamDeletedError, $all in
 * commit-position order, tombstones whose events stay in $all until `scavenge()`, and
 * subscriptions fed as events are appended. What only a server shows is in
 * test/contract/esdb.test.ts (ESDB_URL).
 */
interface Stored {
  streamId: string;
  id: string;
  revision: number;
  type: string;
  data: Uint8Array;
  metadata: Uint8Array;
  created: Date;
  commit: bigint;
}

class MemorySubscription extends EventEmitter implements EsdbServerSubscription {
  readonly buffer: AllStreamResolvedEvent[] = [];
  closed = false;
  get readableLength() {
    return this.buffer.length;
  }
  read() {
    return this.buffer.shift() ?? null;
  }
  push(events: AllStreamResolvedEvent[]) {
    if (this.closed || events.length === 0) return;
    this.buffer.push(...events);
    this.emit('readable');
  }
  async unsubscribe() {
    this.closed = true;
  }
}

function readOf<E>(items: E[], error: Error | null = null): EsdbRead<E> {
  const stream = new Readable({
    objectMode: true,
    read() {
      if (error) {
        this.destroy(error);
        return;
      }
      for (const item of items) this.push(item);
      this.push(null);
    },
  });
  return Object.assign(stream, { cancel: async () => {} });
}

export function esdbMemoryServer() {
  const streams = new Map<string, Stored[]>();
  const tombstoned = new Set<string>();
  let log: Stored[] = [];
  let nextCommit = 1000n;
  const subscriptions: { subscription: MemorySubscription; prefixes: string[] }[] = [];
  /** Appends stored whose answer is then lost (the client sees a deadline): an ambiguous failure. */
  let loseAnswers = 0;

  const resolved = (event: Stored): AllStreamResolvedEvent => {
    const recorded: AllStreamRecordedEvent = {
      streamId: event.streamId,
      id: event.id,
      revision: BigInt(event.revision),
      type: event.type,
      isJson: false,
      data: event.data,
      metadata: JSON.parse(Buffer.from(event.metadata).toString('utf8')),
      created: event.created,
      position: { commit: event.commit, prepare: event.commit },
    };
    return { event: recorded };
  };
  const matches = (prefixes: string[]) => (event: Stored) => prefixes.length === 0 || prefixes.some((prefix) => event.streamId.startsWith(prefix));

  const client: EsdbClient = {
    async appendToStream(streamName, events, options) {
      if (tombstoned.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
      const stream = streams.get(streamName) ?? [];
      const expected = options.expectedRevision ?? 'any';
      const firstId = events[0]?.id;
      const earlier = stream.findIndex((event) => event.id === firstId);
      const expectedAt = expected === 'no_stream' ? -1n : typeof expected === 'bigint' ? expected : null;
      if (earlier >= 0 && (expectedAt === null || BigInt(earlier) - 1n === expectedAt)) {
        const last = stream[earlier + events.length - 1]!;
        if (loseAnswers > 0) {
          loseAnswers -= 1;
          throw new DeadlineExceededError();
        }
        return { success: true, nextExpectedRevision: BigInt(last.revision), position: { commit: last.commit, prepare: last.commit } };
      }
      const current = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
      const ok =
        expected === 'any' || (expected === 'no_stream' ? stream.length === 0 : expected === 'stream_exists' ? stream.length > 0 : current === expected);
      if (!ok) throw new WrongExpectedVersionError(undefined, { streamName, current, expected });
      const appended = events.map((event, i): Stored => {
        const commit = nextCommit;
        nextCommit += BigInt(100 + event.data.byteLength);
        const metadata = event.metadata instanceof Uint8Array ? event.metadata : new TextEncoder().encode(JSON.stringify(event.metadata ?? {}));
        const data = event.data instanceof Uint8Array ? Uint8Array.from(event.data) : new TextEncoder().encode(JSON.stringify(event.data));
        return {
          streamId: streamName,
          id: event.id ?? '',
          revision: stream.length + i,
          type: event.type,
          data,
          metadata: Uint8Array.from(metadata),
          created: new Date(),
          commit,
        };
      });
      stream.push(...appended);
      streams.set(streamName, stream);
      log.push(...appended);
      for (const { subscription, prefixes } of subscriptions) subscription.push(appended.filter(matches(prefixes)).map(resolved));
      if (loseAnswers > 0) {
        loseAnswers -= 1;
        throw new DeadlineExceededError();
      }
      const last = appended.at(-1)!;
      return { success: true, nextExpectedRevision: BigInt(last.revision), position: { commit: last.commit, prepare: last.commit } };
    },

    readStream(streamName, options) {
      if (tombstoned.has(streamName)) return readOf<never>([], StreamDeletedError.fromStreamName(streamName));
      const stream = streams.get(streamName);
      if (!stream) return readOf<never>([], new StreamNotFoundError(undefined, streamName));
      const backwards = options.direction === 'backwards';
      const from = options.fromRevision;
      const start = from === 'start' || from === undefined ? (backwards ? stream.length - 1 : 0) : from === 'end' ? stream.length - 1 : Number(from);
      const picked = backwards ? stream.slice(0, Math.min(start, stream.length - 1) + 1).reverse() : stream.slice(start);
      const count = options.maxCount === undefined ? picked.length : Number(options.maxCount);
      return readOf(picked.slice(0, count).map(resolved));
    },

    readAll(options) {
      const backwards = options.direction === 'backwards';
      const from = options.fromPosition;
      let picked: Stored[];
      if (backwards)
        picked = (from === 'end' || from === undefined ? log : log.filter((event) => from !== 'start' && event.commit <= from.commit)).slice().reverse();
      else picked = from === 'start' || from === undefined ? log : log.filter((event) => from !== 'end' && event.commit >= from.commit);
      return readOf(picked.map(resolved));
    },

    subscribeToAll(options) {
      const subscription = new MemorySubscription();
      const filter = options.filter as { prefixes?: string[] } | undefined;
      const prefixes = filter?.prefixes ?? [];
      subscriptions.push({ subscription, prefixes });
      const from = options.fromPosition;
      const after = from === 'start' || from === undefined ? log : log.filter((event) => from !== 'end' && event.commit > from.commit);
      setImmediate(() => {
        subscription.push(after.filter(matches(prefixes)).map(resolved));
        subscription.emit('caughtUp');
      });
      return subscription;
    },

    async tombstoneStream(streamName) {
      if (tombstoned.has(streamName)) throw StreamDeletedError.fromStreamName(streamName);
      tombstoned.add(streamName);
      return {};
    },

    async dispose() {
      for (const { subscription } of subscriptions) subscription.closed = true;
    },
  };

  return {
    client,
    /** Every byte the server holds for events: data and metadata of every stream, key streams too. */
    storedBytes: () => Buffer.concat(log.flatMap((event) => [Buffer.from(event.data), Buffer.from(event.metadata)])),
    /** Names of the key streams the server still holds. */
    keyStreams: () => [...streams.keys()].filter((name) => name.startsWith('matchkey-')),
    /** Events of a stream as stored. */
    stored: (streamId: string) => streams.get(streamId) ?? [],
    /** What a scavenge does: events of tombstoned streams leave the log. */
    scavenge() {
      log = log.filter((event) => !tombstoned.has(event.streamId));
      for (const name of tombstoned) streams.delete(name);
    },
    loseNextAnswers(count: number) {
      loseAnswers = count;
    },
  };
}
