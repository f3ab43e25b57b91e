import { createHash, randomUUID } from 'node:crypto';
import { unavailable } from '../domain/errors.js';
import { createLru } from '../platform/lru.js';
import type { LogFacts } from '../domain/logFacts.js';
import type { AppendResult, EventMetadata, EventStore, Position, RecordedEvent } from '../eventstore/eventStore.js';
import { WrongExpectedRevisionError } from '../eventstore/eventStore.js';

interface EncodedEvent {
  type: string;
  /** JSON text. */
  data: string;
  /** For a version: its salted digest, stored in the event's metadata (EventMetadata.payloadSha256). */
  payloadSha256?: string;
  /** What its log entry commits of who could write (EventMetadata.logFacts). */
  logFacts?: LogFacts;
}

/** A pure decider plus how its events are stored. */
export interface Decider<State, Command, Event> {
  initialState: () => State;
  /** Rejects by throwing a DomainError. */
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
  /** `before`: the stream's state the event was decided on, its earlier events of the same decision folded in. */
  encode: (event: Event, before: State) => EncodedEvent;
  /** null for stored events this decider does not fold. */
  decode: (recorded: RecordedEvent) => Event | null;
}

/** Where a stream ends: its last event's revision and global position. */
export interface StreamHead {
  revision: number;
  position: Position;
}

export interface HandledCommand<State, Event> {
  events: Event[];
  /** null when the decision was to change nothing: nothing is appended. */
  append: AppendResult | null;
  /** The stream's state after the decision (its events folded in). */
  state: State;
  /** The stream's end after the decision; null when it still does not exist. */
  head: StreamHead | null;
}

/**
 * Folded state of recently handled streams, by stream id. Events never change once stored,
 * so a cached (revision, state) stays a valid prefix: the next command reads only the events
 * after it. Bounded; least recently used entries go first.
 */
export function createStateCache<State>(maxEntries = 10_000) {
  const entries = createLru<{ head: StreamHead; state: State }>(maxEntries);
  return {
    get: (streamId: string) => entries.get(streamId),
    set: (streamId: string, head: StreamHead, state: State) => entries.set(streamId, { head, state }),
  };
}

export type StateCache<State> = ReturnType<typeof createStateCache<State>>;

/**
 * Runs commands on one stream one at a time, in arrival order; different streams run side by
 * side. Commands for one match from several connections then follow each other instead of
 * conflicting in the same group commit and retrying. Only within this process: other processes
 * are still kept out by the expected revision.
 */
export function createStreamQueue() {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(streamId: string, work: () => Promise<T>): Promise<T> {
      const result = (tails.get(streamId) ?? Promise.resolve()).then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(streamId, tail);
      void tail.then(() => {
        if (tails.get(streamId) === tail) tails.delete(streamId);
      });
      return result;
    },
  };
}

export type StreamQueue = ReturnType<typeof createStreamQueue>;

/**
 * Folds a stream into state. With a cache, only the events after the cached head are read.
 * `head` is where the stream ends, null when it does not exist.
 */
export async function loadState<State, Event>(
  eventStore: EventStore,
  streamId: string,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve' | 'decode'>,
  cache?: StateCache<State>,
): Promise<{ state: State; head: StreamHead | null }> {
  const cached = cache?.get(streamId);
  const recorded = await eventStore.readStream(streamId, cached ? { fromRevision: cached.head.revision + 1 } : {});
  let state = cached?.state ?? decider.initialState();
  for (const stored of recorded) {
    const event = decider.decode(stored);
    if (event !== null) state = decider.evolve(state, event);
  }
  const last = recorded.at(-1);
  const head = last ? { revision: last.revision, position: last.position } : (cached?.head ?? null);
  if (cache && head !== null) cache.set(streamId, head, state);
  return { state, head };
}

export interface RetryPolicy {
  /** Attempts in all, the first included; then the command fails as `unavailable` (503). */
  maxAttempts: number;
  /** The wait before retry n (1-based) is random in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]: full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 2,
  maxDelayMs: 100,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** The jittered wait before retry `retry` (1-based) under `policy`. */
export const retryDelay = (policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>, retry: number) =>
  policy.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));

/**
 * Read the stream, fold it into state, decide, append with the revision that was read.
 * A conflicting append means another writer got there first: wait a short jittered while, read
 * again and decide again, so the rules are always applied to the latest state (at most
 * `retry.maxAttempts` times, so writers that keep colliding get a 503 rather than a hang).
 * Other errors are not retried. With a queue, commands on the same stream in this process wait
 * for each other, so only writers in other processes can conflict.
 *
 * A stream the cache does not hold is most often a new one (a create), so with a cache the
 * command is first decided as if the stream were new, without reading it, and appended only if
 * the stream still does not exist (`no_stream`). Anything else (a refusal, nothing to append,
 * a stream that exists after all) sends the command down the reading path at once, where it is
 * decided again on what is stored.
 */
export async function handleCommand<State, Command, Event>(
  eventStore: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  {
    cache,
    queue,
    retry = DEFAULT_RETRY,
    onAppending,
  }: {
    cache?: StateCache<State>;
    queue?: StreamQueue;
    retry?: RetryPolicy;
    /** Told each decided event and the id it is appended with, just before the append. */
    onAppending?: (event: Event, eventId: string) => void;
  } = {},
): Promise<HandledCommand<State, Event>> {
  const attemptId = randomUUID();
  const attemptAt = Date.now();
  /** Appends what was decided on `state` at `head`; null when the stream has moved on since. */
  const append = async (state: State, head: StreamHead | null, events: Event[]): Promise<HandledCommand<State, Event> | null> => {
    const revision = head?.revision ?? null;
    let before = state;
    const toAppend = events.map((event, index) => {
      const { type, data, payloadSha256, logFacts } = decider.encode(event, before);
      before = decider.evolve(before, event);
      const id = eventId(attemptId, attemptAt, streamId, revision, index);
      const own = { ...(payloadSha256 === undefined ? {} : { payloadSha256 }), ...(logFacts === undefined ? {} : { logFacts }) };
      return { type, data, id, metadata: { ...metadata, ...own } };
    });
    if (onAppending) for (const [index, event] of events.entries()) onAppending(event, toAppend[index]!.id);
    try {
      const appended = await eventStore.appendToStream(streamId, toAppend, revision ?? 'no_stream');
      // We know exactly what was appended: the next command on this stream need not read it back.
      const after = events.reduce(decider.evolve, state);
      const end = { revision: appended.nextExpectedRevision, position: appended.position };
      cache?.set(streamId, end, after);
      return { events, append: appended, state: after, head: end };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
  };
  const asNew = async (): Promise<HandledCommand<State, Event> | null> => {
    const state = decider.initialState();
    let events: Event[];
    try {
      events = decider.decide(command, state);
    } catch {
      return null;
    }
    return events.length === 0 ? null : append(state, null, events);
  };
  const attempt = async (): Promise<HandledCommand<State, Event>> => {
    if (cache !== undefined && cache.get(streamId) === undefined) {
      const handled = await asNew();
      if (handled !== null) return handled;
    }
    for (let attempt = 1; ; attempt += 1) {
      const { state, head } = await loadState(eventStore, streamId, decider, cache);
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, append: null, state, head };
      const handled = await append(state, head, events);
      if (handled !== null) return handled;
      if (attempt >= retry.maxAttempts) throw unavailable(`too many concurrent writes to ${streamId}; try again`);
      await retry.sleep(retryDelay(retry, attempt));
    }
  };
  return queue ? queue.run(streamId, attempt) : attempt();
}

/**
 * Event ids derive from this handling and the place in the stream: an append retried by a
 * transport carries the same ids and the store deduplicates it, while a decision taken again
 * after a conflict (another revision) gets new ids. They are laid out as UUIDv7 (the handling's
 * time in milliseconds first, then hash bits), so that the ids of one commit sort together and
 * land on the same pages of the log's event-id index instead of one random page each.
 */
function eventId(attemptId: string, attemptAt: number, streamId: string, revision: number | null, index: number): string {
  const hex = createHash('sha256')
    .update(`${attemptId}\0${streamId}\0${String(revision)}\0${index}`)
    .digest('hex');
  const time = attemptAt.toString(16).padStart(12, '0').slice(-12);
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
