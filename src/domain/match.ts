import { isDeepStrictEqual } from 'node:util';
import { type ClubSyncCheck, decideClubSync } from './clubSync.js';
import { forbidden, validationError } from './errors.js';
import type { JsonText } from './jsonText.js';
import type { ClubSyncEvent, MatchEvent, MatchStreamEvent, Protection, WriteVia } from './matchEvents.js';
import { type PresentedWriteToken, sameWriteTokenHash, WRITE_TOKEN_RULE } from './writeToken.js';

/**
 * The match decider: the write-protection rules of the spec (section 3), pure.
 * `decide` says what happens to an upload; `evolve` folds the match's events into the state
 * `decide` needs.
 */
export type MatchState =
  | { exists: false }
  | {
      exists: true;
      protection: Protection;
      writeTokenHash: string | null;
      /** Digest of the stored payload; null for versions stored before digests were kept. */
      payloadDigest: string | null;
      /** The club sync outcome stored with that payload, null when it named no club. */
      clubSync: ClubSyncEvent | null;
    };

export const initialMatchState = (): MatchState => ({ exists: false });

/** POST or PUT of a whole match payload. The token arrives hashed for this match, its format already judged. */
export interface UploadMatch {
  type: 'UploadMatch';
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  /** payloadDigest(payload), src/domain/payloadDigest.ts. */
  payloadDigest: string;
  writeToken: PresentedWriteToken | null;
  /** Present when the payload names a club and a team: what was found out about them and the key. */
  clubSync?: ClubSyncCheck | null;
}

export type MatchCommand = UploadMatch;

/**
 * The match event, followed by the club sync outcome when the payload names a club and team:
 * both are appended together, so a stored match always has its sync outcome beside it.
 * A rejected write (403) stores neither. An allowed upload of the very text already stored,
 * with the same sync outcome, stores nothing: it is a retry (a timed-out upload sent again),
 * not a new version.
 */
export function decideMatch(command: MatchCommand, state: MatchState): MatchStreamEvent[] {
  const stored = decideMatchContent(command, state);
  const sync = command.clubSync === undefined || command.clubSync === null ? null : decideClubSync(command.matchId, command.clubSync);
  if (state.exists && state.payloadDigest === command.payloadDigest && isDeepStrictEqual(state.clubSync, sync)) return [];
  return sync === null ? stored : [...stored, sync];
}

function decideMatchContent(command: MatchCommand, state: MatchState): MatchEvent[] {
  const { matchId, payload, payloadDigest, via, writeToken } = command;
  if (!state.exists) {
    // Rule 1 and 2: only a creating POST with a token protects; PUT-create never does (and ignores the header).
    if (via === 'PUT' || writeToken === null) {
      return [{ type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: via, payloadDigest, payload } }];
    }
    // Only here is the token bound, so only here does its format matter.
    if (!writeToken.wellFormed) throw validationError(`${WRITE_TOKEN_RULE}; nothing was stored`);
    return [{ type: 'MatchCreated', data: { matchId, protection: 'protected', writeTokenHash: writeToken.hash, createdVia: via, payloadDigest, payload } }];
  }
  // On an existing protected match a token is only compared: whatever its shape, a wrong one is a 403.
  if (state.protection === 'protected' && !tokenMatches(state.writeTokenHash, writeToken)) {
    throw forbidden(
      writeToken === null
        ? 'this match is write-protected: send the X-Write-Token it was created with'
        : 'X-Write-Token does not match the token this match was created with',
    );
  }
  // Rule 3: an unprotected match stays unprotected, whatever header later uploads carry.
  return [{ type: 'MatchReplaced', data: { matchId, replacedVia: via, payloadDigest, payload } }];
}

function tokenMatches(stored: string | null, given: PresentedWriteToken | null): boolean {
  return stored !== null && given !== null && sameWriteTokenHash(stored, given.hash);
}

export function evolveMatch(state: MatchState, event: MatchStreamEvent): MatchState {
  switch (event.type) {
    case 'MatchCreated':
      return {
        exists: true,
        protection: event.data.protection,
        writeTokenHash: event.data.writeTokenHash ?? null,
        payloadDigest: event.data.payloadDigest ?? null,
        clubSync: null,
      };
    case 'MatchReplaced':
      return state.exists ? { ...state, payloadDigest: event.data.payloadDigest ?? null, clubSync: null } : state;
    default:
      return state.exists ? { ...state, clubSync: event } : state;
  }
}
