import { DIFF_BASIS_FORMAT, type DiffBasis, diffBases, type MatchDiff } from '../src/domain/matchDiff.js';
import type { DecodedPayload } from '../src/domain/decodedPayloads.js';
import { diffBasisOfText } from '../src/domain/matchDiffText.js';
import { matchIdOfStream, matchStreamId } from '../src/domain/matchId.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import { publicEvent } from '../src/domain/publicEvent.js';
import { historyEntryId, MATCH_HISTORY, type MatchHistoryDoc } from '../src/readmodel/matchHistoryDocs.js';
import { collectionOf } from '../src/readmodel/readModel.js';
import { basisObject, basisText, type StoredBasis, storedBasis } from '../src/domain/storedBasis.js';
import { defineProjection, doneOffLoop, type ProjectionView } from './projection.js';

/** Per match: what the newest version's diff needs, so the next one is compared without its payload. */
const DIFF_BASIS = collectionOf<BasisDoc>('matchHistoryBasis');

interface BasisDoc {
  id: string;
  revision: number;
  /** DIFF_BASIS_FORMAT when it was made; 0 while not made. */
  format?: number;
  /**
   * Null until a next version needs it: a first version has nothing to be compared with, so
   * its basis is made from its payload in the log only when (and if) the match is replaced;
   * a large first version's at once (BASIS_AT_ONCE_CHARS). A large payload's is kept as its JSON text
   * (src/domain/storedBasis.ts).
   */
  basis: StoredBasis | null;
}

/**
 * A first version of this many characters or more has its basis made at once (below). Measured
 * with the hostile corpus: from ~1 MB, the second parse a replace made of the previous version
 * cost more than the basis adds to the create (the 290,000-key payload, 3.4 MB: create 260 → 440,
 * replace 980 → 440 ms of CPU); at 330 KB (10,000 sets) a create tripled (10 → 30 ms) for a replace
 * 20 ms cheaper, so a match uploaded once paid for nothing.
 */
export const BASIS_AT_ONCE_CHARS = 1024 * 1024;

/** A basis ready to compare with: made, in the current layout. */
type MadeBasis = BasisDoc & { basis: StoredBasis };

/** A version's diff against the one before it, and its own basis. */
interface VersionDiff {
  diff: MatchDiff;
  basis: StoredBasis;
}

const isMade = (doc: BasisDoc): doc is MadeBasis => doc.basis !== null && doc.format === DIFF_BASIS_FORMAT;

/**
 * The history entry of `recorded` and the match's diff basis after it, or null when the event is
 * not a match's or was already applied (its basis is as new or newer). A version after the first
 * needs the basis before it made (see madeBasis); `diffVersion` compares the version with it (below).
 */
async function evolveMatchHistory(
  basis: BasisDoc | null,
  recorded: RecordedEvent,
  made: {
    diffVersion: (payloadText: string, previous: StoredBasis) => Promise<VersionDiff>;
    firstBasis: (payloadText: string) => Promise<StoredBasis>;
  },
): Promise<{ entry: MatchHistoryDoc; basis: BasisDoc | null } | null> {
  const matchId = matchIdOfStream(recorded.streamId);
  if (matchId === null) return null;
  const event = publicEvent(recorded);
  const base = {
    id: historyEntryId(matchId, recorded.revision),
    matchId,
    revision: recorded.revision,
    position: recorded.position,
    type: event.type,
    recordedAt: event.recordedAt,
    requestId: event.requestId,
    clientAddressClass: event.clientAddressClass,
  };
  if (event.content === null) return { entry: { ...base, via: null, protection: null, diff: null, details: event.details }, basis };
  if (basis !== null && basis.revision >= recorded.revision) return null;
  const entry = { ...base, via: event.content.via, protection: event.content.protection, details: null };
  const { payloadText } = event.content;
  // The first version: no diff, and its basis waits until a next version needs it, unless it is
  // large. A large one's is made now, while the write's parse of it is at hand (the helper thread's
  // or the request's): made when the match is replaced, it cost a second parse of the whole payload
  // there. By the text's size alone, so a rebuild makes the same documents whatever the configuration.
  if (basis === null) {
    const first =
      payloadText.length >= BASIS_AT_ONCE_CHARS
        ? basisDoc(matchId, recorded.revision, await made.firstBasis(payloadText))
        : { id: matchId, revision: recorded.revision, format: 0, basis: null };
    return { entry: { ...entry, diff: null }, basis: first };
  }
  if (!isMade(basis))
    throw new Error(`the diff basis of match ${matchId} at revision ${basis.revision} must be made before revision ${recorded.revision} is compared with it`);
  const next = await made.diffVersion(payloadText, basis.basis);
  return { entry: { ...entry, diff: next.diff }, basis: basisDoc(matchId, recorded.revision, next.basis) };
}

/**
 * What a diff needs of one version, from its payload's text; the previous version's basis spares
 * parsing and fingerprinting the actions the two share (same result). Always from the text, the
 * write path's too: a basis made from the request's parse digests JSON.stringify's text of the
 * actions, not the bytes sent, and would differ from the one a rebuild makes (verify compares them);
 * the rest of the payload is taken from the request's parse when there is one (`parsed`: the same).
 */
function versionBasis(view: Pick<ProjectionView, 'memory'>, payloadText: string, previous: DiffBasis | null, parsed?: DecodedPayload): DiffBasis {
  // The texts of the latest versions' actions (the runner's memory): a rebuild or catch-up compares with them instead of digesting (~20 µs a version).
  return diffBasisOfText(payloadText, previous, view.memory.digested, parsed);
}

/**
 * The diff of the version `payloadText` holds against the one `previous` is the basis of, and its
 * basis. Done off the event loop when the view has where and the text is large (a 290,000-field
 * payload's basis takes ~150 ms), unless the request's parse is at hand; in place otherwise, or
 * when that fails.
 */
async function diffVersion(view: ProjectionView, payloadText: string, previous: StoredBasis, parsed?: DecodedPayload): Promise<VersionDiff> {
  const offLoop = parsed === undefined ? await doneOffLoop(view, payloadText, (work) => work.versionDiff(payloadText, basisText(previous))) : undefined;
  if (offLoop !== undefined) return { diff: offLoop.diff, basis: storedBasis(payloadText.length, offLoop.basis) };
  const before = basisObject(previous);
  const after = versionBasis(view, payloadText, before, parsed);
  return { diff: diffBases(before, after), basis: storedBasis(payloadText.length, after) };
}

/** A first version's basis, made off the event loop as diffVersion's when the text is large, unless the request's parse is at hand. */
async function firstBasis(view: ProjectionView, payloadText: string, parsed?: DecodedPayload): Promise<StoredBasis> {
  const offLoop = parsed === undefined ? await doneOffLoop(view, payloadText, (work) => work.diffBasis(payloadText)) : undefined;
  return storedBasis(payloadText.length, offLoop ?? versionBasis(view, payloadText, null, parsed));
}

const basisDoc = (matchId: string, revision: number, basis: StoredBasis): MadeBasis => ({ id: matchId, revision, format: DIFF_BASIS_FORMAT, basis });

/**
 * The stored basis made from the payload it describes, when it was not made yet (a first
 * version) or an older release stored it in another layout. The log keeps that payload and
 * events never change, so this is deterministic (a rebuild makes the same basis).
 */
async function madeBasis(view: ProjectionView, stored: BasisDoc): Promise<MadeBasis | null> {
  if (isMade(stored)) return stored;
  const recorded = await view.readEvent(matchStreamId(stored.id), stored.revision);
  const content = recorded === null ? null : publicEvent(recorded).content;
  if (recorded === null || content === null) return null;
  return basisDoc(stored.id, stored.revision, await firstBasis(view, content.payloadText));
}

/** Only a later version is compared with a stored basis; a first version and a sync outcome need none. */
const readsBasis = (recorded: RecordedEvent) => recorded.type === 'MatchReplaced';

/** Whether applying `recorded`, a later version, compares it with the stored basis (read only for such events). */
const comparesWith = (stored: BasisDoc | null, recorded: RecordedEvent): stored is BasisDoc => stored !== null && stored.revision < recorded.revision;

export const matchHistoryProjection = defineProjection({
  name: MATCH_HISTORY,
  collections: [MATCH_HISTORY, DIFF_BASIS],
  indexes: [{ collection: MATCH_HISTORY, fields: ['matchId', 'revision'] }],
  // Every event of a match's stream has an entry; a write waits for it, so its history shows it.
  // Its MatchErased entry is written here; what the erasure takes from the others, by ./historyErasure.ts.
  canHandle: ['MatchCreated', 'MatchReplaced', 'ClubSyncAccepted', 'ClubSyncUnauthenticated', 'ClubSyncSkipped', 'MatchErased'],
  changedBy: ['MatchCreated', 'MatchReplaced', 'ClubSyncAccepted', 'ClubSyncUnauthenticated', 'ClubSyncSkipped'],
  reads(recorded) {
    const matchId = readsBasis(recorded) ? matchIdOfStream(recorded.streamId) : null;
    return matchId === null ? [] : [{ collection: DIFF_BASIS, id: matchId }];
  },
  async apply(recorded, view) {
    const matchId = matchIdOfStream(recorded.streamId);
    if (matchId === null) return;
    // The texts kept for digests are slices of payloads: an erased match's may not stay (texts of other matches are digested again).
    if (recorded.type === 'MatchErased') view.memory.digested.clear();
    const stored = readsBasis(recorded) ? await view.get(DIFF_BASIS, matchId) : null;
    const basis = comparesWith(stored, recorded) ? await madeBasis(view, stored) : stored;
    const parsed = view.payloads.parsed(recorded.id);
    const next = await evolveMatchHistory(basis, recorded, {
      diffVersion: (text, previous) => diffVersion(view, text, previous, parsed),
      firstBasis: (text) => firstBasis(view, text, parsed),
    });
    if (next === null) return;
    view.put(MATCH_HISTORY, next.entry);
    if (next.basis !== null && next.basis !== basis) view.put(DIFF_BASIS, next.basis);
  },
});
