import {
  type AdminEmailClaimed,
  type AdminEmailState,
  type ClaimAdminEmail,
  decideAdminEmail,
  decodeAdminEmailEvent,
  EMAIL_TAKEN,
  encodeAdminEmailEvent,
  evolveAdminEmail,
  initialAdminEmailState,
} from '../domain/adminEmail.js';
import { hashPassword, passwordProblem, UNUSED_PASSWORD_HASH, verifyPassword } from '../domain/adminPassword.js';
import { type ClubCommand, decideClub, type ExistingClub, initialClubState, type Team } from '../domain/club.js';
import type { ClubEvent } from '../domain/clubEvents.js';
import { adminEmailStreamId, EMAIL_RULE, isEmail, newClubId, newTeamId, normalizeEmail } from '../domain/clubIds.js';
import { conflict, DomainError, validationError } from '../domain/errors.js';
import type { EventMetadata, EventStore } from '../eventstore/eventStore.js';
import { type Decider, handleCommand, loadState } from './commandHandler.js';

const adminEmailDecider: Decider<AdminEmailState, ClaimAdminEmail, AdminEmailClaimed> = {
  initialState: initialAdminEmailState,
  decide: decideAdminEmail,
  evolve: evolveAdminEmail,
  encode: (event) => ({ type: event.type, data: encodeAdminEmailEvent(event) }),
  decode: (recorded) => decodeAdminEmailEvent(recorded.type, recorded.data),
};

interface SignUp {
  clubName: string;
  email: string;
  password: string;
  /** Names of teams to create with the club (the dashboard adds more later). */
  teams: string[];
}

interface ClubAccountsDeps<Context> {
  eventStore: EventStore;
  now: () => Date;
  loadClub: (clubId: string) => Promise<ExistingClub | null>;
  clubCommand: (clubId: string, command: ClubCommand, context: Context) => Promise<ClubEvent[]>;
  metadataOf: (context: Context) => EventMetadata;
}

/** A club admin's account: sign-up (the email claimed across clubs, then the club registered) and login checks (./clubCommands.ts). */
export function createClubAccounts<Context>({ eventStore, now, loadClub, clubCommand, metadataOf }: ClubAccountsDeps<Context>) {
  const emailClaim = async (email: string) => (await loadState(eventStore, adminEmailStreamId(email), adminEmailDecider)).state.claim;
  return {
    /**
     * Creates a club with its admin. The email is claimed first (unique across clubs), then
     * the club is registered. Rejects with a validation error naming the first bad field.
     */
    async signUp(input: SignUp, context: Context): Promise<{ clubId: string; teams: Team[] }> {
      const email = normalizeEmail(input.email);
      if (!isEmail(email)) throw validationError(EMAIL_RULE);
      const problem = passwordProblem(input.password);
      if (problem !== null) throw validationError(problem);
      const passwordHash = await hashPassword(input.password);
      const at = now().toISOString();
      const teams = input.teams.map((name) => ({ teamId: newTeamId(), name }));
      const clubId = newClubId();
      const register: ClubCommand = { type: 'RegisterClub', clubId, name: input.clubName, adminEmail: email, passwordHash, teams, at };
      // Checked before the email is claimed, so a bad club or team name does not hold the address.
      decideClub(register, initialClubState());

      const current = await emailClaim(email);
      const unregisteredClubId = current !== null && (await loadClub(current.clubId)) === null ? current.clubId : null;
      const claim: ClaimAdminEmail = { type: 'ClaimAdminEmail', email, clubId, at, unregisteredClubId };
      try {
        await handleCommand(eventStore, adminEmailStreamId(email), adminEmailDecider, claim, metadataOf(context));
      } catch (error) {
        if (error instanceof DomainError && error.code === 'unavailable') throw conflict(EMAIL_TAKEN);
        throw error;
      }
      const events = await clubCommand(clubId, register, context);
      const added = events.flatMap((event) => (event.type === 'TeamAdded' ? [{ ...event.data, aliases: [] }] : []));
      return { clubId, teams: added };
    },

    /** The admin's club when email and password match; null otherwise (always after a full hash). */
    async verifyLogin(emailInput: string, password: string): Promise<ExistingClub | null> {
      const email = normalizeEmail(emailInput);
      const claim = isEmail(email) ? await emailClaim(email) : null;
      const club = claim === null ? null : await loadClub(claim.clubId);
      const account = club !== null && club.adminEmail === email ? club : null;
      const matches = await verifyPassword(account?.passwordHash ?? UNUSED_PASSWORD_HASH, password);
      return matches ? account : null;
    },
  };
}
