import type {
  AllStreamResolvedEvent,
  AppendResult as EsdbAppendResult,
  AppendToStreamOptions,
  BinaryEventData,
  DeleteResult,
  ReadAllOptions as EsdbReadAllOptions,
  ReadStreamOptions as EsdbReadStreamOptions,
  ResolvedEvent,
  SubscribeToAllOptions,
  TombstoneStreamOptions,
} from '@eventstore/db-client';

/** A read of the client: events as they come; `cancel` ends the server call, `destroy` the iteration. */
export interface EsdbRead<E> extends AsyncIterable<E> {
  cancel(): Promise<void>;
  destroy(error?: Error): unknown;
}

/** A server subscription to $all, as the adapter uses it. */
export interface EsdbServerSubscription {
  read(): AllStreamResolvedEvent | null;
  readonly readableLength: number;
  unsubscribe(): Promise<void>;
  on(event: 'caughtUp' | 'fellBehind' | 'readable' | 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The part of @eventstore/db-client's EventStoreDBClient the adapter calls (connectEsdb checks
 * that the client has it); the tests give a stand-in of it, since no server runs there.
 */
export interface EsdbClient {
  appendToStream(streamName: string, events: BinaryEventData[], options: AppendToStreamOptions): Promise<EsdbAppendResult>;
  readStream(streamName: string, options: EsdbReadStreamOptions): EsdbRead<ResolvedEvent>;
  readAll(options: EsdbReadAllOptions): EsdbRead<AllStreamResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions): EsdbServerSubscription;
  /** Hard-deletes a stream (a match's key stream, on erasure): never readable or writable again. */
  tombstoneStream(streamName: string, options: TombstoneStreamOptions): Promise<DeleteResult>;
  dispose(): Promise<void>;
}

/**
 * The items of a read, failing when none comes for `idleMs`: the client reads with no deadline
 * (6.2.1 passes `deadline: Infinity` whatever the caller asks), so a stalled server would
 * hold the caller, and the per-stream queue behind it, for good. An ended read is cancelled.
 */
export async function* readWithin<E>(read: EsdbRead<E>, idleMs: number, what: string): AsyncGenerator<E> {
  const iterator = read[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const pending = iterator.next();
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`EventStoreDB ${what}: no answer for ${idleMs} ms (defaultDeadline in EVENT_STORE_URL)`)), idleMs);
      });
      let next: IteratorResult<E>;
      try {
        next = await Promise.race([pending, silence]);
      } catch (error) {
        // The read is destroyed below: its pending item then fails, and nobody waits for it.
        pending.catch(() => {});
        throw error;
      } finally {
        clearTimeout(timer);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) {
      read.destroy();
      // Ends the server call; a call that never opened (discovery failed) has nothing to end.
      await read.cancel().catch(() => {});
    }
  }
}
