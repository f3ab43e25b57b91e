import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { createMatchCommands } from '../../src/commands/matchCommands.js';
import type { SyncEnforcement } from '../../src/domain/clubSync.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { createWriteTokenHasher } from '../../src/domain/writeToken.js';
import type { EventStore, RecordedEvent } from '../../src/eventstore/eventStore.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { fixture } from './fixtures.js';
import { tempDataDir } from './testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };

/** A generated payload that names the club and team (and keeps the fixture's own shape). */
export function clubPayload(
  clubId: string,
  teamId: string,
  options: { seed?: number; sport?: 'volleyball' | 'basketball'; id?: string; edit?: (body: Record<string, unknown>) => void } = {},
) {
  const body = fixture({ seed: options.seed ?? 1, sport: options.sport ?? 'volleyball', club: 'CLUB', team: 'TEAM' });
  Object.assign(body, { clubId, teamId }, options.id ? { id: options.id } : {});
  options.edit?.(body);
  return JSON.stringify(body);
}

/**
 * The write side for real (club and match commands on a SQLite event store in a temporary
 * directory, or the event store given), to write the events projection specs are given (test/helpers/projectionSpec.ts).
 */
export function createSyncWorld(t: { teardown(fn: () => void | Promise<void>): void }, options: { eventStore?: EventStore } = {}) {
  const eventStore: EventStore = options.eventStore ?? openSqliteEventStore(join(tempDataDir(t, 'matchlog-sync-'), 'events.sqlite'), { pollIntervalMs: 50 });
  t.teardown(() => eventStore.close());
  const clubs = createClubCommands({ eventStore });
  let enforcement: SyncEnforcement = 'log';
  const matches = createMatchCommands({
    eventStore,
    hashWriteToken: createWriteTokenHasher(randomBytes(32)),
    waitForReaders: async () => true,
    onReadersLagging: () => {},
    checkClubSync: (target, matchId, appKey, payload) => clubs.checkClubSync(target, matchId, appKey, enforcement, payload),
  });

  async function club(name: string, teams: string[] = ['First Team']) {
    const email = `${randomUUID()}@club.test`;
    const { clubId, teams: added } = await clubs.signUp({ clubName: name, email, password: 'correct horse battery', teams }, context);
    const { key, keyId } = await clubs.issueAppKey(clubId, '', context);
    return { clubId, teams: added, teamId: added[0]?.teamId ?? '', key, keyId, email };
  }

  async function upload(payloadText: string, options: { appKey?: string | null; mode?: SyncEnforcement; matchId?: string; via?: 'POST' | 'PUT' } = {}) {
    enforcement = options.mode ?? 'log';
    const body = JSON.parse(payloadText) as { id?: string };
    return matches.upload({
      via: options.via ?? 'POST',
      matchId: options.matchId ?? body.id ?? randomUUID(),
      payload: asJsonText(payloadText),
      writeToken: null,
      appKey: options.appKey ?? null,
      requestId: 'test',
      clientAddressClass: 'loopback',
    });
  }

  /** The events of the log after the last of `after` (all of them without it), as the world wrote them. */
  async function log(after: RecordedEvent[] = []): Promise<RecordedEvent[]> {
    return eventStore.readAll({ after: after.at(-1)?.position ?? null, maxCount: 1_000_000 });
  }

  return { eventStore, clubs, matches, club, upload, log, context };
}
