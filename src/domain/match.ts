import { isDeepStrictEqual } from 'node:util';
import { type ClubSyncCheck, decideClubSync } from './clubSync.js';
import { forbidden, gone, notFound, validationError } from './errors.js';
import type { JsonText } from './jsonText.js';
import type { ClubSyncEvent, MatchErased, MatchEvent, MatchStreamEvent, Protection, WriteVia } from './matchEvents.js';
import { payloadDigest, saltedPayloadSha256 } from './payloadDigest.js';
import { ERASE_TOKEN_MIN, type PresentedWriteToken, sameWriteTokenHash, WRITE_TOKEN_RULE } from './writeToken.js';

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
      /** Unsalted digest of the stored payload, for versions stored before salts; null otherwise. */
      payloadDigest: string | null;
      /** The stored version's salt (base64) and SHA-256(salt ‖ payload); null for versions stored before salts. */
      payloadSalt: string | null;
      payloadSha256: string | null;
      /** The stored payload text's length (UTF-16 code units): an upload of another length is another text, told without a digest. */
      payloadLength: number | null;
      /** payloadEnds of the stored text: an upload whose ends differ is another text, told without a digest. */
      payloadEnds: number | null;
      /** The club sync outcome stored with that payload, null when it named no club. */
      clubSync: ClubSyncEvent | null;
      /** Erased (MatchErased): no upload is taken any more. */
      erased?: boolean;
    };

export const initialMatchState = (): MatchState => ({ exists: false });

/** POST or PUT of a whole match payload. The token arrives hashed for this match, its format already judged. */
export interface UploadMatch {
  type: 'UploadMatch';
  via: WriteVia;
  matchId: string;
  payload: JsonText;
  /** A fresh random salt (base64) for the version the upload may store: its payloadSha256 is SHA-256(salt ‖ payload). */
  payloadSalt: string;
  writeToken: PresentedWriteToken | null;
  /** Present when the payload names a club and a team: what was found out about them and the key. */
  clubSync?: ClubSyncCheck | null;
}

export type MatchCommand = UploadMatch;

/** Erase a match (docs/auditing.md): by the operator, or through the API by the holder of a protected match's token. */
export interface EraseMatch {
  type: 'EraseMatch';
  matchId: string;
  reason: string;
  by: { operator: true; askedBy?: ErasureAsker } | { operator: false; writeToken: PresentedWriteToken | null };
  /** The stream's versions and club sync outcomes, as read (the state keeps no revisions). */
  versions: number[];
  syncs: { clubId: string; revision: number }[];
}

export const ERASE_REASON_MAX = 500;

/** A club admin who asked, from the dashboard, for the operator's erasure of a match synced into the club. */
export interface ErasureAsker {
  clubId: string;
  adminEmail: string;
}

/** The rules of erasure: an existing, not yet erased match; through the API only a protected one, with its token. */
export function decideErasure(command: EraseMatch, state: MatchState): MatchErased[] {
  const { matchId, reason, by, versions, syncs } = command;
  if (!state.exists) throw notFound(`no match with id "${matchId}"`);
  if (state.erased) throw gone(`match "${matchId}" was erased already`);
  if (!by.operator) {
    if (state.protection !== 'protected') {
      throw forbidden("an unprotected match cannot be erased through the API (anyone holds its id): ask the service's operator to run matchlog erase");
    }
    if (by.writeToken !== null && !by.writeToken.longEnoughToErase) {
      throw forbidden(
        `erasing a match through the API needs its X-Write-Token to be at least ${ERASE_TOKEN_MIN} characters (128 random bits); ` +
          "a match protected with a shorter token is erased by the service's operator (matchlog erase)",
      );
    }
    if (!tokenMatches(state.writeTokenHash, by.writeToken)) {
      throw forbidden(
        by.writeToken === null
          ? 'erasing this match needs the X-Write-Token it was created with'
          : 'X-Write-Token does not match the token this match was created with',
      );
    }
  }
  const trimmed = reason.trim();
  if (trimmed.length === 0 || trimmed.length > ERASE_REASON_MAX) throw validationError(`give a reason for the erasure, 1-${ERASE_REASON_MAX} characters`);
  const askedBy = by.operator && by.askedBy !== undefined ? { askedBy: by.askedBy } : {};
  return [{ type: 'MatchErased', data: { matchId, reason: trimmed, versions, syncs, ...askedBy } }];
}

/**
 * The match event, followed by the club sync outcome when the payload names a club and team:
 * both are appended together, so a stored match always has its sync outcome beside it.
 * A rejected write (403) stores neither. An allowed upload of the very text already stored,
 * with the same sync outcome, stores nothing: it is a retry (a timed-out upload sent again),
 * not a new version.
 */
export function decideMatch(command: MatchCommand, state: MatchState): MatchStreamEvent[] {
  refuseUpload(command, state);
  const sync = command.clubSync === undefined || command.clubSync === null ? null : decideClubSync(command.matchId, command.clubSync);
  if (state.exists && sameAsStored(state, command) && isDeepStrictEqual(state.clubSync, sync)) return [];
  const stored = versionOf(command, state);
  return sync === null ? [stored] : [stored, sync];
}

/** Whether the upload is the stored version's text: hashed with the stored salt, or unsalted for older versions. */
function sameAsStored(state: Extract<MatchState, { exists: true }>, command: MatchCommand): boolean {
  // A live match's next version is longer, and an edit of the same length mostly changes a score
  // near the start or a rally near the end: no SHA-256 of it made twice (~65 µs of 87 KB).
  if (state.payloadLength !== null && state.payloadLength !== command.payload.length) return false;
  if (state.payloadEnds !== null && state.payloadEnds !== payloadEnds(command.payload)) return false;
  if (state.payloadSalt !== null) return saltedPayloadSha256(Buffer.from(state.payloadSalt, 'base64'), command.payload) === state.payloadSha256;
  return state.payloadDigest !== null && state.payloadDigest === payloadDigest(command.payload);
}

/** Throws when the upload may not be stored: an erased match, a malformed token that would bind a new one, a wrong one on a protected one. */
function refuseUpload(command: MatchCommand, state: MatchState): void {
  const { matchId, via, writeToken } = command;
  if (state.exists && state.erased) throw gone(`match "${matchId}" was erased; its id cannot be used again`);
  if (!state.exists) {
    // Only a creating POST with a token binds it, so only there does its format matter.
    if (via === 'POST' && writeToken !== null && !writeToken.wellFormed) throw validationError(`${WRITE_TOKEN_RULE}; nothing was stored`);
    return;
  }
  // On an existing protected match a token is only compared: whatever its shape, a wrong one is a 403.
  if (state.protection === 'protected' && !tokenMatches(state.writeTokenHash, writeToken)) {
    throw forbidden(
      writeToken === null
        ? 'this match is write-protected: send the X-Write-Token it was created with'
        : 'X-Write-Token does not match the token this match was created with',
    );
  }
}

/** The version an upload stores, its salted digest made now that it is stored (a repeated upload makes none). */
function versionOf(command: MatchCommand, state: MatchState): MatchEvent {
  const { matchId, payload, payloadSalt, via, writeToken } = command;
  const payloadSha256 = saltedPayloadSha256(Buffer.from(payloadSalt, 'base64'), payload);
  // Rule 3: an unprotected match stays unprotected, whatever header later uploads carry.
  if (state.exists) return { type: 'MatchReplaced', data: { matchId, replacedVia: via, payloadSalt, payload, payloadSha256 } };
  // Rules 1 and 2: only a creating POST with a token protects; PUT-create never does (and ignores the header).
  if (via === 'PUT' || writeToken === null) {
    return { type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: via, payloadSalt, payload, payloadSha256 } };
  }
  return {
    type: 'MatchCreated',
    data: { matchId, protection: 'protected', writeTokenHash: writeToken.hash, createdVia: via, payloadSalt, payload, payloadSha256 },
  };
}

function tokenMatches(stored: string | null, given: PresentedWriteToken | null): boolean {
  return stored !== null && given !== null && sameWriteTokenHash(stored, given.hash);
}

/** What the state keeps of a version to tell a repeated upload: its digests, salted or not, and its length. */
function versionDigests(event: MatchEvent) {
  const salt = event.data.payloadSalt ?? null;
  return {
    payloadDigest: salt === null ? (event.data.payloadDigest ?? null) : null,
    payloadSalt: salt,
    payloadSha256: salt === null ? null : (event.data.payloadSha256 ?? saltedPayloadSha256(Buffer.from(salt, 'base64'), event.data.payload)),
    payloadLength: event.data.payload.length,
    payloadEnds: payloadEnds(event.data.payload),
  };
}

/** Characters of each end of a payload's text that payloadEnds reads. */
const END_CHARS = 256;

/**
 * A 32-bit FNV-1a hash of a text's first and last END_CHARS characters (of all of it when
 * shorter): different for two texts says they differ; equal says nothing. A number, so the state
 * keeps no part of the text alive.
 */
function payloadEnds(text: string): number {
  let hash = 0x811c9dc5;
  const mix = (from: number, to: number) => {
    for (let i = from; i < to; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  };
  if (text.length <= 2 * END_CHARS) mix(0, text.length);
  else {
    mix(0, END_CHARS);
    mix(text.length - END_CHARS, text.length);
  }
  return hash >>> 0;
}

export function evolveMatch(state: MatchState, event: MatchStreamEvent): MatchState {
  switch (event.type) {
    case 'MatchCreated':
      return {
        exists: true,
        protection: event.data.protection,
        writeTokenHash: event.data.writeTokenHash ?? null,
        ...versionDigests(event),
        clubSync: null,
      };
    case 'MatchReplaced':
      return state.exists ? { ...state, ...versionDigests(event), clubSync: null } : state;
    case 'MatchErased':
      // Its versions are erased too, so the state may know nothing else of the match.
      return state.exists
        ? { ...state, erased: true, clubSync: null }
        : {
            exists: true,
            protection: 'protected',
            writeTokenHash: null,
            payloadDigest: null,
            payloadSalt: null,
            payloadSha256: null,
            payloadLength: null,
            payloadEnds: null,
            clubSync: null,
            erased: true,
          };
    default:
      return state.exists ? { ...state, clubSync: event } : state;
  }
}
