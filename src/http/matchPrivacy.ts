import { type ExistingClub, namesOfTeam, teamPublicity } from '../domain/club.js';
import { clubSide, type ClubSyncTarget } from '../domain/clubSync.js';
import { decodeMatchEvent } from '../domain/matchEvents.js';
import { matchStreamId } from '../domain/matchId.js';
import { summarizeMatchText } from '../domain/matchPayload.js';
import { type MatchPrivacy, privacyInputOfText, privacyKey, type Replacement, replacementsOf } from '../domain/playerPrivacy.js';
import { sameWriteTokenHash, type WriteTokenHasher } from '../domain/writeToken.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { createLru } from '../platform/lru.js';
import type { ReadModelReader } from '../readmodel/readModel.js';
import { readPublicPayload, readPublicView } from '../../projections/publicView.js';
import { matchOfVersionKey, versionKey } from './renderedKeys.js';

export interface MatchPrivacyDeps {
  /** The club as its stream says now (src/commands/clubCommands.ts). */
  loadClub: (clubId: string) => Promise<ExistingClub | null>;
  eventStore: Pick<EventStore, 'readStream'>;
  readModel: Pick<ReadModelReader, 'get'>;
  hashWriteToken: WriteTokenHasher;
}

/** What a match's privacy depends on, besides the club's settings: read once per version. */
interface VersionInput {
  target: ClubSyncTarget | null;
  sides: unknown;
}

/**
 * A match's privacy for anonymous readers (issue 61, docs/public-pages.md): the privacy level
 * of the team its version syncs into, read from the club's stream at each request (a changed
 * setting shows at once), and the club's side of the match. Null when the match shows its
 * players as uploaded. Per version, what the payload names is kept (a few hundred bytes each).
 */
export function createMatchPrivacy({ loadClub, eventStore, readModel, hashWriteToken }: MatchPrivacyDeps) {
  const inputs = createLru<VersionInput>(5000);
  const replacements = createLru<Replacement[]>(500);

  async function inputOf(id: string, revision: number, text: () => Promise<string> | string): Promise<VersionInput> {
    const key = versionKey(id, revision);
    const known = inputs.get(key);
    if (known !== undefined) return known;
    const input = privacyInputOfText(await text());
    inputs.set(key, input);
    return input;
  }

  /** The privacy of match `id`'s version at `revision` (its payload text read only the first time). */
  async function privacyOf(id: string, revision: number, text: () => Promise<string> | string): Promise<MatchPrivacy | null> {
    const { target, sides } = await inputOf(id, revision, text);
    if (target === null) return null;
    const club = await loadClub(target.clubId);
    const team = club?.teams.find((t) => t.teamId === target.teamId);
    if (club === null || team === undefined) return null;
    const level = teamPublicity(club, team.teamId).privacy;
    if (level === 'full') return null;
    const settled = Object.hasOwn(club.settledSides, id) ? (club.settledSides[id] ?? null) : null;
    return { level, side: clubSide(sides, { teamId: team.teamId, names: namesOfTeam(club, team), settled }) };
  }

  /**
   * Whether a request holds the match's write token (X-Write-Token): its holder reads what it
   * uploaded. Compared in constant time with the hash its creation stored; never logged.
   */
  async function holdsWriteToken(id: string, presented: string | string[] | undefined): Promise<boolean> {
    if (typeof presented !== 'string' || presented === '') return false;
    const [created] = await eventStore.readStream(matchStreamId(id), { fromRevision: 0, maxCount: 1 });
    const event = created === undefined ? null : decodeMatchEvent(created.type, created.data);
    const stored = event?.type === 'MatchCreated' ? event.data.writeTokenHash : null;
    return typeof stored === 'string' && sameWriteTokenHash(stored, hashWriteToken(id, presented));
  }

  /**
   * The names an anonymous reader of match `id` must not see in texts other than its payload (its
   * history's diffs), and what they read instead: from its current version; [] when there are none.
   */
  async function anonymousReplacements(id: string, presentedToken: string | string[] | undefined): Promise<Replacement[]> {
    const doc = await readPublicView(readModel, id);
    if (doc === null) return [];
    const text = () => readPublicPayload(eventStore, doc);
    const privacy = await privacyOf(id, doc.revision, text);
    if (privacy === null || (await holdsWriteToken(id, presentedToken))) return [];
    const key = `${versionKey(id, doc.revision)}${privacyKey(privacy)}`;
    const known = replacements.get(key);
    if (known !== undefined) return known;
    const made = replacementsOf(summarizeMatchText(await text()), privacy);
    replacements.set(key, made);
    return made;
  }

  /** Lets go of what was kept of an erased match. */
  const forgetMatch = (id: string) => {
    const ofMatch = (key: string) => matchOfVersionKey(key) === id;
    inputs.deleteWhere(ofMatch);
    replacements.deleteWhere(ofMatch);
  };

  return { privacyOf, holdsWriteToken, anonymousReplacements, forgetMatch };
}

export type MatchPrivacyReader = ReturnType<typeof createMatchPrivacy>;
