import { type ClubSyncCheck, decideClubSync } from './clubSync.js';
import { forbidden, validationError } from './errors.js';
import type { JsonText } from './jsonText.js';
import type { MatchEvent, MatchStreamEvent, Protection, WriteVia } from './matchEvents.js';
import { type PresentedWriteToken, sameWriteTokenHash, WRITE_TOKEN_RULE } from './writeToken.js';

/**
 * The match decider: the write-protection rules of the spec (section 3), pure.
 * `decide` says what happens to an upload; `evolve` folds the match's events into the state
 * `decide` needs.
 */
export type MatchState =
  | { exists: false }
  | { exists: true; protection: Protection; writeTokenHash: string | null };

export const initialMatchState = (): MatchState => ({ exists: false });

/** POST or PUT of a whole match payload. The token arrives hashed for this match, its format already judged. */
export interface UploadMatch {
  type: 'UploadMatch';
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  writeToken: PresentedWriteToken | null;
  /** Present when the payload names a club and a team: what was found out about them and the key. */
  clubSync?: ClubSyncCheck | null;
}

export type MatchCommand = UploadMatch;

/**
 * The match event, followed by the club sync outcome when the payload names a club and team:
 * both are appended together, so a stored match always has its sync outcome beside it.
 * A rejected write (403) stores neither.
 */
export function decideMatch(command: MatchCommand, state: MatchState): MatchStreamEvent[] {
  const stored = decideMatchContent(command, state);
  const { clubSync } = command;
  return clubSync === undefined || clubSync === null ? stored : [...stored, decideClubSync(command.matchId, clubSync)];
}

function decideMatchContent(command: MatchCommand, state: MatchState): MatchEvent[] {
  const { matchId, payload, via, writeToken } = command;
  if (!state.exists) {
    // Rule 1 and 2: only a creating POST with a token protects; PUT-create never does (and ignores the header).
    if (via === 'PUT' || writeToken === null) {
      return [{ type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: via, payload } }];
    }
    // Only here is the token bound, so only here does its format matter.
    if (!writeToken.wellFormed) throw validationError(`${WRITE_TOKEN_RULE}; nothing was stored`);
    return [{ type: 'MatchCreated', data: { matchId, protection: 'protected', writeTokenHash: writeToken.hash, createdVia: via, payload } }];
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
  return [{ type: 'MatchReplaced', data: { matchId, replacedVia: via, payload } }];
}

function tokenMatches(stored: string | null, given: PresentedWriteToken | null): boolean {
  return stored !== null && given !== null && sameWriteTokenHash(stored, given.hash);
}

export function evolveMatch(state: MatchState, event: MatchStreamEvent): MatchState {
  switch (event.type) {
    case 'MatchCreated':
      return { exists: true, protection: event.data.protection, writeTokenHash: event.data.writeTokenHash ?? null };
    default:
      return state;
  }
}
