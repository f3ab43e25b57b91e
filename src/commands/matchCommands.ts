import { type ClubSyncCheck, type ClubSyncTarget, clubSyncTarget, skippedSync } from '../domain/clubSync.js';
import { decideErasure, decideMatch, type ErasureAsker, evolveMatch, initialMatchState, type MatchCommand, type MatchState } from '../domain/match.js';
import { decodeClubSyncEvent, isMatchEventType } from '../domain/matchEvents.js';
import { conflict, gone } from '../domain/errors.js';
import { StreamErasedError, WrongExpectedRevisionError } from '../eventstore/eventStore.js';
import { type ClubSyncEvent, decodeMatchStreamEvent, encodeMatchStreamEvent, type MatchStreamEvent, type WriteVia } from '../domain/matchEvents.js';
import { matchStreamId } from '../domain/matchId.js';
import { randomUUID } from 'node:crypto';
import { randomBase64 } from '../platform/randomPool.js';
import { PAYLOAD_SALT_BYTES } from '../domain/payloadDigest.js';

/** Bytes of the salt an erasure's log entry digests its data (the reason) with. */
const DATA_SALT_BYTES = 16;
import { summarizeMatch } from '../domain/matchPayload.js';
import type { DecodedPayloads } from '../domain/decodedPayloads.js';
import type { JsonText } from '../domain/jsonText.js';
import { presentWriteToken, type WriteTokenHasher } from '../domain/writeToken.js';
import { versionFacts } from '../domain/logFacts.js';
import type { EventStore, Position, RecordedEvent } from '../eventstore/eventStore.js';
import { createStateCache, createStreamQueue, type Decider, handleCommand } from './commandHandler.js';

export const matchDecider: Decider<MatchState, MatchCommand, MatchStreamEvent> = {
  initialState: initialMatchState,
  decide: decideMatch,
  evolve: evolveMatch,
  encode: (event, before) => ({
    type: event.type,
    data: encodeMatchStreamEvent(event),
    ...((event.type === 'MatchCreated' || event.type === 'MatchReplaced') && event.data.payloadSha256 !== undefined
      ? { payloadSha256: event.data.payloadSha256 }
      : {}),
    ...((event.type === 'MatchCreated' || event.type === 'MatchReplaced') && { logFacts: versionFacts(event, before) }),
  }),
  // An erased version has no data left; the MatchErased after it says all the state needs.
  decode: (recorded) => (recorded.erased ? null : decodeMatchStreamEvent(recorded.type, recorded.data)),
};

export interface UploadInput {
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  writeToken: string | null;
  /** The X-App-Key header, for club sync. */
  appKey: string | null;
  /**
   * The payload already parsed, when the caller has it: exactly JSON.parse(payload), never
   * altered. Club sync and this process's projections then need not parse it again.
   */
  body?: unknown;
  /**
   * Without `body` (a body read on a helper thread, parsed there): false when the caller knows
   * the payload names no club and team to sync into, so it is not parsed here to find out.
   */
  namesClub?: boolean;
  requestId: string;
  clientAddressClass: string;
}

export interface UploadResult {
  matchId: string;
  created: boolean;
  /** Whether a new version was stored; false when the upload repeated the stored one (a retry). */
  stored: boolean;
  revision: number;
  /** Revision of the version this upload stored; null when it stored none (a repeat). */
  versionRevision: number | null;
  position: Position;
  /** The club sync outcome, when the payload named a club and team. */
  clubSync: ClubSyncEvent | null;
  /** The spec's `crmSync: "skipped_auth"`: the sync was skipped for want of valid authentication. */
  syncSkipped: boolean;
  /**
   * The stored version's salt (base64), for its receipt: with it and the uploaded bytes an app
   * proves its upload, even after an erasure; null for a version stored before salts.
   */
  payloadSalt: string | null;
}

export interface EraseInput {
  matchId: string;
  reason: string;
  /** The operator (matchlog erase) may erase any match; the API only a protected one, with its token. */
  operator: boolean;
  /** The operator's erasure asked for from the club dashboard: the club and admin, kept in the MatchErased event. */
  askedBy?: ErasureAsker;
  writeToken: string | null;
  requestId: string;
  clientAddressClass: string;
}

export interface EraseResult {
  /** Revision and position of the MatchErased event. */
  revision: number;
  position: Position;
  versions: number[];
}

export interface MatchCommandsDeps {
  eventStore: EventStore;
  hashWriteToken: WriteTokenHasher;
  /** Resolves once readers see what the events appended at up to `position` change (read-your-writes), or times out. */
  waitForReaders: (position: Position, eventTypes: readonly string[]) => Promise<boolean>;
  onReadersLagging: (position: Position) => void;
  /** Looks up the club, its team and the app key for an attempted sync (src/commands/clubCommands.ts). */
  checkClubSync: (target: ClubSyncTarget, matchId: string, appKey: string | null, payload: unknown) => Promise<ClubSyncCheck>;
  /** Where this process's projection runner finds payloads already parsed (the engine's); absent, none are handed over. */
  decodedPayloads?: Pick<DecodedPayloads, 'remember'>;
}

/** What an erasure needs of a match's stream: its state, its versions' revisions, and its club syncs. */
function erasureFacts(recorded: readonly RecordedEvent[]) {
  let state = initialMatchState();
  for (const event of recorded) {
    const decoded = matchDecider.decode(event);
    if (decoded !== null) state = evolveMatch(state, decoded);
  }
  const versions = recorded.filter((event) => isMatchEventType(event.type)).map((event) => event.revision);
  const syncs = recorded.flatMap((event) => {
    const sync = event.erased ? null : decodeClubSyncEvent(event.type, event.data);
    return sync === null ? [] : [{ clubId: sync.data.clubId, revision: event.revision }];
  });
  return { state, versions, syncs };
}

/** The log entry commits who asked, and the reason only by a digest after a salt of its own (a guess cannot be confirmed). */
const erasureMetadata = (input: EraseInput) => ({
  requestId: input.requestId,
  clientAddressClass: input.clientAddressClass,
  schemaVersion: 1,
  logFacts: { via: input.operator ? ('operator' as const) : ('DELETE' as const) },
  dataSalt: randomBase64(DATA_SALT_BYTES),
});

/** The write side of matches: uploads become events, durable before the caller hears back. */
export function createMatchCommands({ eventStore, hashWriteToken, waitForReaders, onReadersLagging, checkClubSync, decodedPayloads }: MatchCommandsDeps) {
  // A live match is re-uploaded after every rally; without the cache each upload would re-read every version.
  const cache = createStateCache<MatchState>();
  const queue = createStreamQueue();

  /** Club sync is checked once per upload, before deciding: the key's validity at this moment counts. */
  async function clubSyncOf(input: UploadInput): Promise<ClubSyncCheck | null> {
    if (input.body === undefined && input.namesClub === false) return null;
    // Decided on the parsed payload: a key spelled "\u0063lubId" names the club as surely as "clubId".
    const body = input.body === undefined ? JSON.parse(input.payload) : input.body;
    const target = clubSyncTarget(body);
    return target === null ? null : checkClubSync(target, input.matchId, input.appKey, body);
  }

  return {
    /**
     * Erases a match (docs/auditing.md): appends MatchErased with the reason, then erases every
     * version's data from the log (payloads, salts, delta chains), then waits until every read
     * model has dropped what it held of them. A crash between the append and the erasure leaves
     * the payloads in the log, answered 410 everywhere: running the erasure again finishes it.
     */
    async erase(input: EraseInput): Promise<EraseResult> {
      const streamId = matchStreamId(input.matchId);
      return queue.run(streamId, async () => {
        const recorded = await eventStore.readStream(streamId);
        const { state, versions, syncs } = erasureFacts(recorded);
        const last = recorded.at(-1);
        if (state.exists && state.erased && last !== undefined && input.operator) {
          // Already erased: finish what a crash may have left (the store's erasure is idempotent).
          await eventStore.erasePayloads(streamId, versions);
          return { revision: last.revision, position: last.position, versions };
        }
        const writeToken = input.writeToken === null ? null : presentWriteToken(hashWriteToken, input.matchId, input.writeToken);
        const events = decideErasure(
          {
            type: 'EraseMatch',
            matchId: input.matchId,
            reason: input.reason,
            by: input.operator ? { operator: true, ...(input.askedBy === undefined ? {} : { askedBy: input.askedBy }) } : { operator: false, writeToken },
            versions,
            syncs,
          },
          state,
        );
        const metadata = erasureMetadata(input);
        const toAppend = events.map((event) => ({ ...matchDecider.encode(event, state), id: randomUUID(), metadata }));
        let appended;
        try {
          appended = await eventStore.appendToStream(streamId, toAppend, last?.revision ?? 'no_stream');
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) throw conflict(`match "${input.matchId}" changed while it was being erased; try again`);
          throw error;
        }
        cache.set(streamId, { revision: appended.nextExpectedRevision, position: appended.position }, events.reduce(evolveMatch, state));
        await eventStore.erasePayloads(streamId, versions);
        if (!(await waitForReaders(appended.position, ['MatchErased']))) onReadersLagging(appended.position);
        return { revision: appended.nextExpectedRevision, position: appended.position, versions };
      });
    },

    async upload(input: UploadInput): Promise<UploadResult> {
      const clubSync = await clubSyncOf(input);
      // The club's projections copy from the payload's summary. Made now, while the request's
      // parse is still in the CPU's caches, it takes half the time it takes after the log's commit.
      const summary = input.body !== undefined && clubSync !== null && clubSync.found !== 'no_such_club' ? summarizeMatch(input.body) : undefined;
      const command: MatchCommand = {
        type: 'UploadMatch',
        via: input.via,
        matchId: input.matchId,
        payload: input.payload,
        // A fresh salt per version: the transparency log commits to SHA-256(salt ‖ payload) (docs/auditing.md).
        payloadSalt: randomBase64(PAYLOAD_SALT_BYTES),
        writeToken: input.writeToken === null ? null : presentWriteToken(hashWriteToken, input.matchId, input.writeToken),
        clubSync,
      };
      // This process's projections take the payload as the request parsed it: the public view
      // keeps its team names, the history compares a later version, a club sync copies it.
      const onAppending = (event: MatchStreamEvent, eventId: string) => {
        if (input.body !== undefined && (event.type === 'MatchReplaced' || event.type === 'MatchCreated')) {
          decodedPayloads?.remember(eventId, input.body, summary);
        }
      };
      const metadata = { requestId: input.requestId, clientAddressClass: input.clientAddressClass, schemaVersion: 1 };
      const { events, state, head } = await handleCommand(eventStore, matchStreamId(input.matchId), matchDecider, command, metadata, {
        cache,
        queue,
        onAppending,
      }).catch((error: unknown) => {
        // The store knows the match was erased before any record of it was read here (EventStoreDB: its key is gone).
        if (error instanceof StreamErasedError) throw gone(`match "${input.matchId}" was erased; its id cannot be used again`);
        throw error;
      });
      // An upload that stores nothing repeats the stored version: the match exists (a rejection throws).
      if (head === null || !state.exists) throw new Error('an upload left no match');
      // A retry answers as the upload it repeats: only once readers show that version (it may be
      // another connection's upload still being projected).
      const touched = events.length > 0 ? events.map((event) => event.type) : ['MatchReplaced', ...(state.clubSync ? [state.clubSync.type] : [])];
      // The write is durable either way; a lagging read model is reported, not turned into an error.
      if (!(await waitForReaders(head.position, touched))) onReadersLagging(head.position);
      return {
        matchId: input.matchId,
        created: events.some((event) => event.type === 'MatchCreated'),
        stored: events.length > 0,
        revision: head.revision,
        // The version is the append's first event; a club sync outcome may follow it.
        versionRevision: events.length > 0 ? head.revision - events.length + 1 : null,
        position: head.position,
        clubSync: state.clubSync,
        syncSkipped: skippedSync(state.clubSync),
        // The stored version's (a repeat answers as the upload it repeats: its salt too).
        payloadSalt: state.payloadSalt,
      };
    },
  };
}

export type MatchCommands = ReturnType<typeof createMatchCommands>;
