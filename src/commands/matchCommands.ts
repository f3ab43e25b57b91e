import { decideMatch, evolveMatch, initialMatchState, type MatchCommand, type MatchState } from '../domain/match.js';
import { decodeMatchEvent, encodeMatchEvent, type MatchEvent, type WriteVia } from '../domain/matchEvents.js';
import { matchStreamId } from '../domain/matchId.js';
import type { JsonText } from '../domain/jsonText.js';
import type { WriteTokenHasher } from '../domain/writeToken.js';
import type { EventStore, Position } from '../eventstore/port.js';
import { createStateCache, type Decider, handleCommand } from './commandHandler.js';

export const matchDecider: Decider<MatchState, MatchCommand, MatchEvent> = {
  initialState: initialMatchState,
  decide: decideMatch,
  evolve: evolveMatch,
  encode: (event) => ({ type: event.type, data: encodeMatchEvent(event) }),
  decode: (recorded) => decodeMatchEvent(recorded.type, recorded.data),
};

export interface UploadInput {
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  writeToken: string | null;
  requestId: string;
  clientAddressClass: string;
}

export interface UploadResult {
  matchId: string;
  created: boolean;
  revision: number;
  position: Position;
}

export interface MatchCommandsDeps {
  eventStore: EventStore;
  hashWriteToken: WriteTokenHasher;
  /** Resolves once readers see everything up to `position` (read-your-writes), or times out. */
  waitForReaders: (position: Position) => Promise<boolean>;
  onReadersLagging: (position: Position) => void;
}

/** The write side of matches: uploads become events, durable before the caller hears back. */
export function createMatchCommands({ eventStore, hashWriteToken, waitForReaders, onReadersLagging }: MatchCommandsDeps) {
  // A live match is re-uploaded after every rally; without the cache each upload would re-read every version.
  const cache = createStateCache<MatchState>();
  return {
    async upload(input: UploadInput): Promise<UploadResult> {
      const command: MatchCommand = {
        type: 'UploadMatch',
        via: input.via,
        matchId: input.matchId,
        payload: input.payload,
        writeTokenHash: input.writeToken === null ? null : hashWriteToken(input.matchId, input.writeToken),
      };
      const { events, append } = await handleCommand(eventStore, matchStreamId(input.matchId), matchDecider, command, {
        requestId: input.requestId,
        clientAddressClass: input.clientAddressClass,
        schemaVersion: 1,
      }, { cache });
      // The write is durable either way; a lagging read model is reported, not turned into an error.
      if (!(await waitForReaders(append.position))) onReadersLagging(append.position);
      return {
        matchId: input.matchId,
        created: events.some((event) => event.type === 'MatchCreated'),
        revision: append.nextExpectedRevision,
        position: append.position,
      };
    },
  };
}

export type MatchCommands = ReturnType<typeof createMatchCommands>;
