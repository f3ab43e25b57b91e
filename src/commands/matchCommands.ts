import { type ClubSyncCheck, type ClubSyncTarget, clubSyncTarget, skippedSync } from '../domain/clubSync.js';
import { decideMatch, evolveMatch, initialMatchState, type MatchCommand, type MatchState } from '../domain/match.js';
import { type ClubSyncEvent, decodeMatchStreamEvent, encodeMatchStreamEvent, type MatchStreamEvent, type WriteVia } from '../domain/matchEvents.js';
import { matchStreamId } from '../domain/matchId.js';
import { randomBytes } from 'node:crypto';
import { PAYLOAD_SALT_BYTES, payloadDigest, saltedVersion } from '../domain/payloadDigest.js';
import { summarizeMatch } from '../domain/matchPayload.js';
import { rememberDecodedPayload } from '../domain/decodedPayloads.js';
import type { JsonText } from '../domain/jsonText.js';
import { isWellFormedWriteToken, type WriteTokenHasher } from '../domain/writeToken.js';
import type { EventStore, Position } from '../eventstore/eventStore.js';
import { createStateCache, createStreamQueue, type Decider, handleCommand } from './commandHandler.js';

export const matchDecider: Decider<MatchState, MatchCommand, MatchStreamEvent> = {
  initialState: initialMatchState,
  decide: decideMatch,
  evolve: evolveMatch,
  encode: (event) => ({
    type: event.type,
    data: encodeMatchStreamEvent(event),
    ...((event.type === 'MatchCreated' || event.type === 'MatchReplaced') && event.data.payloadSha256 !== undefined ? { payloadSha256: event.data.payloadSha256 } : {}),
  }),
  decode: (recorded) => decodeMatchStreamEvent(recorded.type, recorded.data),
};

export interface UploadInput {
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  /** The payload's digest (src/domain/payloadDigest.ts), when the caller has it. */
  payloadDigest?: string;
  writeToken: string | null;
  /** The X-App-Key header, for club sync. */
  appKey: string | null;
  /**
   * The payload already parsed, when the caller has it: exactly JSON.parse(payload), never
   * altered. Club sync and this process's projections then need not parse it again.
   */
  body?: unknown;
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
}

export interface MatchCommandsDeps {
  eventStore: EventStore;
  hashWriteToken: WriteTokenHasher;
  /** Resolves once readers see what the events appended at up to `position` change (read-your-writes), or times out. */
  waitForReaders: (position: Position, eventTypes: readonly string[]) => Promise<boolean>;
  onReadersLagging: (position: Position) => void;
  /** Looks up the club, its team and the app key for an attempted sync (src/commands/clubCommands.ts). */
  checkClubSync: (target: ClubSyncTarget, matchId: string, appKey: string | null, payload: unknown) => Promise<ClubSyncCheck>;
}

/** The write side of matches: uploads become events, durable before the caller hears back. */
export function createMatchCommands({ eventStore, hashWriteToken, waitForReaders, onReadersLagging, checkClubSync }: MatchCommandsDeps) {
  // A live match is re-uploaded after every rally; without the cache each upload would re-read every version.
  const cache = createStateCache<MatchState>();
  const queue = createStreamQueue();

  /** Club sync is checked once per upload, before deciding: the key's validity at this moment counts. */
  async function clubSyncOf(input: UploadInput): Promise<ClubSyncCheck | null> {
    // Decided on the parsed payload: a key spelled "\u0063lubId" names the club as surely as "clubId".
    const body = input.body === undefined ? JSON.parse(input.payload) : input.body;
    const target = clubSyncTarget(body);
    return target === null ? null : checkClubSync(target, input.matchId, input.appKey, body);
  }

  return {
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
        payloadDigest: input.payloadDigest ?? payloadDigest(input.payload),
        // A fresh salt per version: the transparency log commits to SHA-256(salt ‖ payload) (docs/auditing.md).
        ...saltedVersion(input.payload, randomBytes(PAYLOAD_SALT_BYTES)),
        writeToken:
          input.writeToken === null ? null : { hash: hashWriteToken(input.matchId, input.writeToken), wellFormed: isWellFormedWriteToken(input.writeToken) },
        clubSync,
      };
      // This process's projections take the payload as the request parsed it: the public view
      // keeps its team names, the history compares a later version, a club sync copies it.
      const onAppending = (event: MatchStreamEvent, eventId: string) => {
        if (input.body !== undefined && (event.type === 'MatchReplaced' || event.type === 'MatchCreated')) {
          rememberDecodedPayload(eventId, input.body, summary);
        }
      };
      const { events, state, head } = await handleCommand(eventStore, matchStreamId(input.matchId), matchDecider, command, {
        requestId: input.requestId,
        clientAddressClass: input.clientAddressClass,
        schemaVersion: 1,
      }, { cache, queue, onAppending });
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
      };
    },
  };
}

export type MatchCommands = ReturnType<typeof createMatchCommands>;
