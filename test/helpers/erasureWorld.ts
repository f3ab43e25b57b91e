import { randomBytes, randomUUID } from 'node:crypto';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { createMatchCommands } from '../../src/commands/matchCommands.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { createWriteTokenHasher } from '../../src/domain/writeToken.js';
import type { EventStore, Position } from '../../src/eventstore/eventStore.js';
import type { ReadModelStore } from '../../src/readmodel/readModel.js';
import { allProjections } from '../../projections/all.js';
import { replayUntil } from '../../projections/replay.js';
import { clubPayload } from './syncWorld.js';

/** A name no fixture holds: after an erasure it may be in no collection, file or response. */
export const ERASURE_MARKER = 'Zoë-Erasure-Marker-5c1d';

/** A match payload naming a club and team whose home team carries the marker. */
export const markedPayload = (clubId: string, teamId: string, id: string, seed = 1) =>
  clubPayload(clubId, teamId, { id, seed, edit: (body) => Object.assign(body, { homeTeam: { name: ERASURE_MARKER, setsWon: 2 } }) });

/** The write side over any event store (one per process): clubs, uploads and the operator's erasure, as the service runs them. */
export function erasureWriters(eventStore: EventStore) {
  const clubs = createClubCommands({ eventStore });
  const matches = createMatchCommands({
    eventStore,
    hashWriteToken: createWriteTokenHasher(randomBytes(32)),
    waitForReaders: async () => true,
    onReadersLagging: () => {},
    checkClubSync: (target, matchId, appKey, payload) => clubs.checkClubSync(target, matchId, appKey, 'log', payload),
  });
  const context = { requestId: 'test', clientAddressClass: 'loopback' };

  async function club(name: string) {
    const { clubId, teams } = await clubs.signUp(
      { clubName: name, email: `${randomUUID()}@club.test`, password: 'correct horse battery', teams: ['First Team'] },
      context,
    );
    const { key } = await clubs.issueAppKey(clubId, '', context);
    return { clubId, teamId: teams[0]?.teamId ?? '', key };
  }

  const upload = (matchId: string, payload: string, appKey: string | null = null) =>
    matches.upload({ via: 'PUT', matchId, payload: asJsonText(payload), body: JSON.parse(payload), writeToken: null, appKey, ...context });

  const erase = (matchId: string) => matches.erase({ matchId, reason: 'a parent asked', operator: true, writeToken: null, ...context });

  return { club, upload, erase, matches };
}

/**
 * Every projection run from the start over the whole log into `readModel`, as a rebuild or a
 * new worker does; each one's checkpoint afterwards (the head when it replayed past everything).
 */
export async function replayEveryProjection(eventStore: EventStore, readModel: ReadModelStore): Promise<Map<string, Position | null>> {
  const head = await eventStore.headPosition();
  const reached = new Map<string, Position | null>();
  for (const projection of allProjections) {
    await readModel.ensureIndexes(projection.indexes);
    try {
      reached.set(projection.name, (await replayUntil(projection, eventStore, readModel, head)).position);
    } catch (error) {
      if (process.env.DEBUG_REPLAY) console.error(projection.name, error);
      reached.set(projection.name, await readModel.getCheckpoint(projection.name));
    }
  }
  return reached;
}

/** Collections of every projection whose documents hold `marker`, as `collection/id`. */
export async function documentsHolding(readModel: ReadModelStore, marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const collection of new Set(allProjections.flatMap((projection) => projection.collections))) {
    for (const doc of await readModel.find(collection)) if (JSON.stringify(doc).includes(marker)) found.push(`${collection}/${doc.id}`);
  }
  return found;
}

/**
 * The log as the projections of a world started at `start` see it: only what was appended after
 * it (a real EventStoreDB server keeps the events of earlier runs, some of them not the service's).
 */
export function logSince(eventStore: EventStore, start: Position | null): EventStore {
  return {
    ...eventStore,
    async readAll({ after, maxCount }) {
      let from = after === null || (start !== null && after < start) ? start : after;
      for (;;) {
        const events = await eventStore.readAll({ after: from, maxCount });
        if (events.length === 0 || start === null) return events;
        const ours = events.filter((event) => event.position > start);
        if (ours.length > 0) return ours;
        from = events.at(-1)!.position;
      }
    },
  };
}

/** A synced match of three versions carrying the marker, uploaded through `writers`, and its club. */
export async function markedMatch(writers: ReturnType<typeof erasureWriters>, prefix: string) {
  const club = await writers.club(`${prefix} Owls`);
  const matchId = `${prefix}-${randomUUID().slice(0, 8)}`;
  for (const seed of [1, 2, 3]) await writers.upload(matchId, markedPayload(club.clubId, club.teamId, matchId, seed), club.key);
  return { club, matchId };
}
