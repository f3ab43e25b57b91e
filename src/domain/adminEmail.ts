import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { conflict } from './errors.js';

/**
 * The `admin-<email>` stream makes admin emails unique across clubs: its events claim the
 * address for one club, and appends to it are guarded by the expected revision, so of two
 * sign-ups racing for one address exactly one wins.
 *
 * Sign-up claims the address first and registers the club second. If the process stops in
 * between, the claim names a club that never came to be; such a claim is released to the
 * next sign-up once it is older than `UNFINISHED_CLAIM_MS`.
 */
const UNFINISHED_CLAIM_MS = 15 * 60 * 1000;

const AdminEmailClaimedV1 = Type.Object({
  schemaVersion: Type.Literal(1),
  email: Type.String(),
  clubId: Type.String(),
  claimedAt: Type.String(),
});

export interface AdminEmailClaimed {
  type: 'AdminEmailClaimed';
  data: Omit<Static<typeof AdminEmailClaimedV1>, 'schemaVersion'>;
}

export type AdminEmailState = { claim: { clubId: string; claimedAt: string } | null };

export const initialAdminEmailState = (): AdminEmailState => ({ claim: null });

export interface ClaimAdminEmail {
  type: 'ClaimAdminEmail';
  email: string;
  clubId: string;
  at: string;
  /** The club of the current claim, when the caller found that it was never registered. */
  unregisteredClubId: string | null;
}

export const EMAIL_TAKEN = 'an account with this email already exists; log in instead';

export function decideAdminEmail(command: ClaimAdminEmail, state: AdminEmailState): AdminEmailClaimed[] {
  const { claim } = state;
  if (claim !== null) {
    const unfinished = claim.clubId === command.unregisteredClubId && Date.parse(command.at) - Date.parse(claim.claimedAt) > UNFINISHED_CLAIM_MS;
    if (!unfinished) throw conflict(EMAIL_TAKEN);
  }
  return [{ type: 'AdminEmailClaimed', data: { email: command.email, clubId: command.clubId, claimedAt: command.at } }];
}

export const evolveAdminEmail = (_state: AdminEmailState, event: AdminEmailClaimed): AdminEmailState => ({
  claim: { clubId: event.data.clubId, claimedAt: event.data.claimedAt },
});

export const encodeAdminEmailEvent = (event: AdminEmailClaimed) => JSON.stringify({ schemaVersion: 1, ...event.data });

export function decodeAdminEmailEvent(type: string, data: string): AdminEmailClaimed | null {
  if (type !== 'AdminEmailClaimed') return null;
  const value: unknown = JSON.parse(data);
  if (!Value.Check(AdminEmailClaimedV1, value)) throw new Error('unreadable AdminEmailClaimed event data');
  const { schemaVersion: _v, ...fields } = value;
  return { type, data: fields };
}
