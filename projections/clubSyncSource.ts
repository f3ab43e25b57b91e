import { clubSyncTarget, mayNameClub } from '../src/domain/clubSync.js';
import type { JsonText } from '../src/domain/jsonText.js';
import { decodeMatchEvent } from '../src/domain/matchEvents.js';
import type { PlayerLine } from '../src/domain/matchPayload.js';
import type { RecordedEvent } from '../src/eventstore/eventStore.js';
import type { DecodedPayloads } from '../src/domain/decodedPayloads.js';
import type { ProjectionView } from './projection.js';
import type { SyncSource } from './syncSource.js';

/** More stat names than any sport's scouting app sends; the rest of an upload's are not copied. */
export const MAX_TRACKED_STATS = 150;
/** Two full rosters with room to spare (football squads, basketball with bench). */
export const MAX_COPIED_PLAYERS = 120;

type SyncOutcome = Pick<RecordedEvent, 'streamId' | 'revision'>;

/** The match event a sync outcome follows: the event before it in its append, else read from the log. */
/** Whether the version a sync outcome follows was erased: its club's read models keep nothing of it. */
export async function erasedContentBefore(outcome: SyncOutcome, append: readonly RecordedEvent[], view: Pick<ProjectionView, 'readEvent'>): Promise<boolean> {
  return (await syncContentBefore(outcome, append, view))?.erased === true;
}

export async function syncContentBefore(
  outcome: SyncOutcome,
  append: readonly RecordedEvent[],
  view: Pick<ProjectionView, 'readEvent'>,
): Promise<RecordedEvent | null> {
  return (
    append.find((event) => event.streamId === outcome.streamId && event.revision === outcome.revision - 1) ??
    (await view.readEvent(outcome.streamId, outcome.revision - 1))
  );
}

/**
 * The club-sync content of the match event that a sync outcome follows (revision just before
 * it, same append: taken from `append`, else read from the log), or null when there is none or
 * it names no club. Decoded once for every projection that asks.
 */
export async function syncSourceBefore(
  outcome: SyncOutcome,
  append: readonly RecordedEvent[],
  view: Pick<ProjectionView, 'readEvent' | 'payloads' | 'memory'>,
): Promise<SyncSource | null> {
  const content = await syncContentBefore(outcome, append, view);
  // An erased version copies nothing (and is never taken from the cache of decoded sources).
  if (content === null || content.erased) return null;
  const known = view.memory.syncSources.get(content.id);
  if (known !== undefined) return known.source;
  const match = decodeMatchEvent(content.type, content.data);
  const source = match === null ? null : syncSourceOf(view.payloads, content.id, match.data.payload);
  view.memory.syncSources.set(content.id, { source });
  return source;
}

/** The payload's club-sync content, or null when the payload does not name a club and team. */
function syncSourceOf(payloads: Pick<DecodedPayloads, 'decoded' | 'parsed'>, eventId: string, payload: JsonText): SyncSource | null {
  // A payload parsed already is asked directly; else the text is scanned before it is parsed.
  const decoded = payloads.parsed(eventId) ?? (mayNameClub(payload) ? payloads.decoded(eventId, payload) : null);
  if (decoded === null || clubSyncTarget(decoded.body) === null) return null;
  const { actions: _actions, ...summary } = decoded.summary();
  return { summary, ...trackedPlayers(summary.players) };
}

/**
 * The payload's players as club sync copies them, and the stats tracked for them. Apps often
 * leave a zero out of a player's stats; a stat any player has is tracked for all. Bounded, so
 * that no single upload can make the club's pages grow with it.
 */
export function trackedPlayers(players: PlayerLine[]): Pick<SyncSource, 'players' | 'tracked'> {
  const names = new Set<string>();
  for (const player of players) for (const name of Object.keys(player.stats)) names.add(name);
  return { players: players.slice(0, MAX_COPIED_PLAYERS), tracked: [...names].slice(0, MAX_TRACKED_STATS) };
}
