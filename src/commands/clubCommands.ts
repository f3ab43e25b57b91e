import { generateAppKey, type IssuedAppKey } from '../domain/appKey.js';
import {
  type ClubCommand,
  type ClubState,
  decideClub,
  evolveClub,
  type ExistingClub,
  initialClubState,
  namesOfTeam,
  type SettledSide,
  type Team,
  verifyAppKey,
} from '../domain/club.js';
import { type ClubEvent, decodeClubEvent, encodeClubEvent } from '../domain/clubEvents.js';
import { clubStreamId, isClubId, newFixtureId, newTeamId } from '../domain/clubIds.js';
import { type ClubSyncCheck, type ClubSyncTarget, clubSide, type SyncEnforcement } from '../domain/clubSync.js';
import { DomainError } from '../domain/errors.js';
import type { FixtureDetails } from '../domain/fixtures.js';
import type { TeamPublicity } from '../domain/teamPublicity.js';
import type { EventMetadata, EventStore, Position } from '../eventstore/eventStore.js';
import { createClubAccounts } from './clubAccounts.js';
import { createStateCache, type Decider, handleCommand, loadState } from './commandHandler.js';

const clubDecider: Decider<ClubState, ClubCommand, ClubEvent> = {
  initialState: initialClubState,
  decide: decideClub,
  evolve: evolveClub,
  encode: (event) => ({ type: event.type, data: encodeClubEvent(event) }),
  decode: (recorded) => decodeClubEvent(recorded.type, recorded.data),
};

/** Who asked, for the events' metadata. */
export interface RequestContext {
  requestId: string;
  clientAddressClass: string;
}

export interface ClubCommandsDeps {
  eventStore: EventStore;
  now?: () => Date;
  /** Resolves once the read models show the log up to `position` (read-your-writes for the admin's decisions). */
  waitForReaders?: (position: Position) => Promise<boolean>;
}

/** A club's events are its dashboard's private actions: kept out of the public transparency log (issue 59, F8). */
const metadataOf = (context: RequestContext): EventMetadata => ({ ...context, schemaVersion: 1, publicLog: false });

/** Runs `attempt`, which makes up a fresh id, again while the id is taken (astronomically rare). */
async function withFreshId<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'conflict') || tries >= 5) throw error;
    }
  }
}

type ClubCommandRunner = (clubId: string, command: ClubCommand, context: RequestContext) => Promise<unknown>;

/** A team's fixtures, announced, changed and cancelled from the dashboard. */
const fixtureCommands = (clubCommand: ClubCommandRunner, now: () => Date) => ({
  /** Fixtures announced from the dashboard (the form: one; a CSV import: many, all or none). */
  async announceFixtures(clubId: string, teamId: string, fixtures: FixtureDetails[], context: RequestContext): Promise<void> {
    await withFreshId(async () => {
      const withIds = fixtures.map((details) => ({ fixtureId: newFixtureId(), details }));
      await clubCommand(clubId, { type: 'AnnounceFixtures', teamId, fixtures: withIds, at: now().toISOString() }, context);
    });
  },

  async changeFixture(clubId: string, teamId: string, fixtureId: string, details: FixtureDetails, context: RequestContext): Promise<void> {
    await clubCommand(clubId, { type: 'ChangeFixture', teamId, fixtureId, details, at: now().toISOString() }, context);
  },

  async cancelFixture(clubId: string, teamId: string, fixtureId: string, context: RequestContext): Promise<void> {
    await clubCommand(clubId, { type: 'CancelFixture', teamId, fixtureId, at: now().toISOString() }, context);
  },
});

/**
 * What the match decider needs to know about an attempted sync, from the club as its stream says
 * now (null: no such club): does the club (and team) exist, is the key one of its valid keys, is a
 * key required (globally or by the club), which side of the match is the club's.
 */
function syncCheckOf(
  club: ExistingClub | null,
  target: ClubSyncTarget,
  matchId: string,
  appKey: string | null,
  globalEnforcement: SyncEnforcement,
  payload: unknown,
): ClubSyncCheck {
  if (club === null) {
    return { ...target, enforcement: globalEnforcement, found: 'no_such_club', key: { valid: false, problem: 'unknown_key', keyId: null }, side: null };
  }
  const team = club.teams.find((t) => t.teamId === target.teamId) ?? null;
  const settled = Object.hasOwn(club.settledSides, matchId) ? (club.settledSides[matchId] ?? null) : null;
  return {
    ...target,
    enforcement: club.appKeyRequiredSince !== null ? 'enforce' : globalEnforcement,
    found: team === null ? 'no_such_team' : 'club_and_team',
    key: verifyAppKey(club, appKey),
    side: clubSide(payload, { teamId: target.teamId, names: team === null ? [] : namesOfTeam(club, team), settled }),
  };
}

/**
 * The write side of clubs: sign-up, login checks, teams, app keys, and the app-key check of a
 * club sync. Club state is always folded from the club's own stream (the source of truth), so
 * a revoked key or a logout takes effect for the very next request.
 */
export function createClubCommands({ eventStore, now = () => new Date(), waitForReaders = async () => true }: ClubCommandsDeps) {
  // Every upload that syncs reads its club: cache the folded state and read only newer events.
  const clubCache = createStateCache<ClubState>(1000);

  /** The club as its stream says now (the cache only saves re-reading events already folded). */
  async function loadClub(clubId: string): Promise<ExistingClub | null> {
    if (!isClubId(clubId)) return null;
    const { state } = await loadState(eventStore, clubStreamId(clubId), clubDecider, clubCache);
    return state.exists ? state : null;
  }

  async function clubCommand(clubId: string, command: ClubCommand, context: RequestContext): Promise<ClubEvent[]> {
    const { events } = await handleCommand(eventStore, clubStreamId(clubId), clubDecider, command, metadataOf(context), { cache: clubCache });
    return events;
  }

  async function decisionCommand(clubId: string, command: ClubCommand, context: RequestContext): Promise<void> {
    const { append } = await handleCommand(eventStore, clubStreamId(clubId), clubDecider, command, metadataOf(context), { cache: clubCache });
    if (append !== null) await waitForReaders(append.position);
  }

  return {
    loadClub,
    ...createClubAccounts({ eventStore, now, loadClub, clubCommand, metadataOf }),

    async addTeam(clubId: string, name: string, context: RequestContext): Promise<Team> {
      return withFreshId(async () => {
        const events = await clubCommand(clubId, { type: 'AddTeam', teamId: newTeamId(), name }, context);
        const added = events.find((event) => event.type === 'TeamAdded');
        if (added === undefined) throw new Error('AddTeam decided no TeamAdded event');
        return { ...added.data, aliases: [] };
      });
    },

    async renameTeam(clubId: string, teamId: string, name: string, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'RenameTeam', teamId, name }, context);
    },

    /** A new key; the returned `key` is the only time it exists outside the app that gets it. */
    async issueAppKey(clubId: string, label: string, context: RequestContext): Promise<IssuedAppKey> {
      return withFreshId(async () => {
        const issued = generateAppKey();
        const { keyId, prefix, hash } = issued;
        await clubCommand(clubId, { type: 'IssueAppKey', keyId, prefix, hash, label, at: now().toISOString() }, context);
        return issued;
      });
    },

    async revokeAppKey(clubId: string, keyId: string, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'RevokeAppKey', keyId, at: now().toISOString() }, context);
    },

    /** Logout: ends every session of the club's admin issued until now. */
    async endAdminSessions(clubId: string, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'EndAdminSessions', at: now().toISOString() }, context);
    },

    async setTeamAliases(clubId: string, teamId: string, aliases: string[], context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'SetTeamAliases', teamId, aliases }, context);
    },

    /** Per-club enforcement: from now on every sync into the club needs a valid app key (or no longer). */
    async setAppKeyRequirement(clubId: string, required: boolean, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'SetAppKeyRequirement', required, at: now().toISOString() }, context);
    },

    /** The club's public page on or off (each team still opts in with setTeamPublicity). */
    async setClubPublicPage(clubId: string, publicPage: boolean, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'SetClubPublicPage', publicPage, at: now().toISOString() }, context);
    },

    /** What the public sees of a team, from the next request on (pages read the club's stream). */
    async setTeamPublicity(clubId: string, teamId: string, publicity: TeamPublicity, context: RequestContext): Promise<void> {
      await clubCommand(clubId, { type: 'SetTeamPublicity', teamId, ...publicity, at: now().toISOString() }, context);
    },

    ...fixtureCommands(clubCommand, now),

    /** The admin's decisions change the club's numbers: they return once the dashboard shows them. */
    async settleMatchSide(
      clubId: string,
      matchId: string,
      side: SettledSide,
      context: RequestContext,
      remember?: { teamId: string; name: string },
    ): Promise<void> {
      await decisionCommand(clubId, { type: 'SettleMatchSide', matchId, side, at: now().toISOString(), ...(remember ? { remember } : {}) }, context);
    },

    async setMatchCounted(clubId: string, matchId: string, counted: boolean, context: RequestContext): Promise<void> {
      const at = now().toISOString();
      await decisionCommand(clubId, counted ? { type: 'IncludeMatch', matchId, at } : { type: 'ExcludeMatch', matchId, at }, context);
    },

    /** What the match decider needs to know about an attempted sync, read from the club's stream at this moment (syncCheckOf). */
    async checkClubSync(target: ClubSyncTarget, matchId: string, appKey: string | null, globalEnforcement: SyncEnforcement, payload: unknown) {
      return syncCheckOf(await loadClub(target.clubId), target, matchId, appKey, globalEnforcement, payload);
    },
  };
}

export type ClubCommands = ReturnType<typeof createClubCommands>;
