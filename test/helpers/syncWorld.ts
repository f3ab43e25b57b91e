import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { createMatchCommands } from '../../src/commands/matchCommands.js';
import type { SyncEnforcement } from '../../src/domain/clubSync.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { createWriteTokenHasher } from '../../src/domain/writeToken.js';
import type { EventStore } from '../../src/eventstore/eventStore.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import type { Document, ReadModelStore } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import type { Projection } from '../../projections/projection.js';
import { appendsOf } from '../../projections/appends.js';
import { applyBatch } from '../../projections/unitOfWork.js';
import { tempDataDir } from './testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };

/**
 * The write side for real (club and match commands on a SQLite event store in a temporary
 * directory), and projections applied to a real SQLite read model, every event `times` times.
 */
export function createSyncWorld(t: { teardown(fn: () => void | Promise<void>): void }) {
  const dir = tempDataDir(t, 'matchlog-sync-');
  const eventStore: EventStore = openSqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 });
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

  /** Applies every append of the log `times` times in a row (redelivery), then the whole log once more. */
  async function project(projections: Projection[], times = 2): Promise<ReadModelStore> {
    const store = openSqliteReadModel(':memory:');
    t.teardown(() => store.close());
    const events = await eventStore.readAll({ after: null, maxCount: 1_000_000 });
    for (const projection of projections) {
      let checkpoint: number | null = null;
      const deliver = async (append: typeof events) => {
        const next: number = Math.max(checkpoint ?? 0, append.at(-1)?.position ?? 0);
        await store.commit(projection.name, await applyBatch(projection, store, append), next, checkpoint);
        checkpoint = next;
      };
      for (const append of appendsOf(events)) for (let i = 0; i < times; i += 1) await deliver(append);
      if (times > 1) for (const append of appendsOf(events)) await deliver(append);
    }
    return store;
  }

  /** Every document of the projections' collections, by collection. */
  async function documents(store: ReadModelStore, projections: Projection[]): Promise<Record<string, Document[]>> {
    const out: Record<string, Document[]> = {};
    for (const projection of projections) for (const collection of projection.collections) out[collection] = await store.find(collection);
    return out;
  }

  return { eventStore, clubs, matches, club, upload, project, documents, context };
}
