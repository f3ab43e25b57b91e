import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** What FixtureAnnounced and FixtureChanged say of a fixture. */
const fixtureFields = () => ({
  opponent: Type.String(),
  startsAt: Type.String(),
  timeZone: Type.String(),
  venue: Type.String(),
  homeAway: Type.Union([Type.Literal('home'), Type.Literal('away')]),
  matchId: Type.Union([Type.String(), Type.Null()]),
});

/**
 * Events of the `club-<clubId>` stream, stored as versioned envelopes. No secret is ever in
 * them: app keys appear only as id, listing prefix and SHA-256 hash, passwords only as scrypt hash.
 */
const envelopes = {
  /** A club and its admin account came into being. */
  ClubRegistered: Type.Object({
    schemaVersion: Type.Literal(1),
    clubId: Type.String(),
    name: Type.String(),
    /** Normalised (trimmed, lower-case); the `admin-<email>` stream holds the claim on it. */
    adminEmail: Type.String(),
    /** scrypt hash (src/domain/adminPassword.ts). */
    passwordHash: Type.String(),
    registeredAt: Type.String(),
  }),
  TeamAdded: Type.Object({ schemaVersion: Type.Literal(1), teamId: Type.String(), name: Type.String() }),
  TeamRenamed: Type.Object({ schemaVersion: Type.Literal(1), teamId: Type.String(), name: Type.String() }),
  /** A new app key; the key itself was shown to the admin once and is not kept. */
  AppKeyIssued: Type.Object({
    schemaVersion: Type.Literal(1),
    keyId: Type.String(),
    prefix: Type.String(),
    hash: Type.String(),
    label: Type.String(),
    issuedAt: Type.String(),
  }),
  /** From this event on, the key authenticates nothing. */
  AppKeyRevoked: Type.Object({ schemaVersion: Type.Literal(1), keyId: Type.String(), revokedAt: Type.String() }),
  /** The admin logged out: every session issued up to `at` ends. */
  AdminLoggedOut: Type.Object({ schemaVersion: Type.Literal(1), at: Type.String() }),
  /** Other names the club's team goes by in scoring apps ("Lakeside Herons U18 Girls"). */
  TeamAliasesSet: Type.Object({ schemaVersion: Type.Literal(1), teamId: Type.String(), aliases: Type.Array(Type.String()) }),
  /** From `at` on, this club's syncs need a valid app key whatever the global enforcement (or no longer do). */
  AppKeyRequirementSet: Type.Object({ schemaVersion: Type.Literal(1), required: Type.Boolean(), at: Type.String() }),
  /** The admin said which side of a match is the club's, where the upload did not tell. */
  MatchSideSettled: Type.Object({
    schemaVersion: Type.Literal(1),
    matchId: Type.String(),
    side: Type.Union([Type.Literal('home'), Type.Literal('away')]),
    at: Type.String(),
  }),
  /** The admin left a match out of the club's players and stats (e.g. a flagged, unauthenticated sync). */
  MatchExcluded: Type.Object({ schemaVersion: Type.Literal(1), matchId: Type.String(), at: Type.String() }),
  /** The admin counted an excluded match again. */
  MatchIncluded: Type.Object({ schemaVersion: Type.Literal(1), matchId: Type.String(), at: Type.String() }),
  /** The club's public page at /c/<club> is on (or off again); each team still opts in (TeamPublicitySet). */
  ClubPublicPageSet: Type.Object({ schemaVersion: Type.Literal(1), publicPage: Type.Boolean(), at: Type.String() }),
  /** What the public sees of a team from `at` on (src/domain/teamPublicity.ts); pages apply it, the log keeps what was uploaded. */
  TeamPublicitySet: Type.Object({
    schemaVersion: Type.Literal(1),
    teamId: Type.String(),
    publicPage: Type.Boolean(),
    privacy: Type.Union([Type.Literal('full'), Type.Literal('first-initial'), Type.Literal('initials'), Type.Literal('numbers')]),
    roster: Type.Union([Type.Literal('shown'), Type.Literal('hidden')]),
    indexing: Type.Union([Type.Literal('noindex'), Type.Literal('index')]),
    at: Type.String(),
  }),
  /** A fixture the admin announced from the dashboard (src/domain/fixtures.ts); `startsAt` is UTC, `timeZone` the zone it was entered in. */
  FixtureAnnounced: Type.Object({ schemaVersion: Type.Literal(1), fixtureId: Type.String(), teamId: Type.String(), ...fixtureFields(), at: Type.String() }),
  /** A fixture's details as changed (a moved time, another venue): every field, as now. */
  FixtureChanged: Type.Object({ schemaVersion: Type.Literal(1), fixtureId: Type.String(), ...fixtureFields(), at: Type.String() }),
  /** The fixture will not be played; calendars show it cancelled. */
  FixtureCancelled: Type.Object({ schemaVersion: Type.Literal(1), fixtureId: Type.String(), at: Type.String() }),
};

type Envelopes = typeof envelopes;
type ClubEventType = keyof Envelopes;

export type ClubEvent = {
  [K in ClubEventType]: { type: K; data: Omit<Static<Envelopes[K]>, 'schemaVersion'> };
}[ClubEventType];

const isClubEventType = (type: string): type is ClubEventType => Object.hasOwn(envelopes, type);

const CLUB_EVENT_SCHEMA_VERSION = 1;

export function encodeClubEvent(event: ClubEvent): string {
  return JSON.stringify({ schemaVersion: CLUB_EVENT_SCHEMA_VERSION, ...event.data });
}

/**
 * Reads stored club event data back; null for types that are not club events. Every schema
 * version ever written stays readable: a changed shape gets an upcaster here.
 */
export function decodeClubEvent(type: string, data: string): ClubEvent | null {
  if (!isClubEventType(type)) return null;
  const schema: TObject = envelopes[type];
  const value: unknown = JSON.parse(data);
  if (!Value.Check(schema, value)) {
    const first = Value.Errors(schema, value).First();
    throw new Error(`unreadable ${type} event data: ${first?.path ?? ''} ${first?.message ?? ''}`.trim());
  }
  const { schemaVersion: _v, ...fields } = value;
  // Checked against the type's own schema just above.
  return { type, data: fields } as ClubEvent;
}
