import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { notFound } from '../../src/domain/errors.js';
import { matchStreamId } from '../../src/domain/matchId.js';
import { encodeMatchStreamEvent, type MatchStreamEvent } from '../../src/domain/matchEvents.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { publicEvent } from '../../src/domain/publicEvent.js';
import type { EventStore, ReadStreamOptions } from '../../src/eventstore/eventStore.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { readMatchAt } from '../../src/history/historyQueries.js';
import { holds, numRuns } from '../helpers/properties.js';

/** readMatchAt as it was written first (every read whole, the version searched 16 events at a time): the answer the faster one must give. */
async function readMatchAtByScan(store: EventStore, matchId: string, revision: number) {
  const streamId = matchStreamId(matchId);
  const [first] = await store.readStream(streamId, { maxCount: 1 });
  const [newest] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  if (!first || !newest) throw notFound(`no match with id "${matchId}"`);
  if (revision > newest.revision) throw notFound(`match "${matchId}" has no revision ${revision}; the latest is ${newest.revision}`);
  const created = publicEvent(first);
  if (!created.content) throw new Error(`${streamId} does not start with MatchCreated`);
  for (let from = revision; from >= 0; ) {
    const events = await store.readStream(streamId, { direction: 'backwards', fromRevision: from, maxCount: 16 });
    for (const event of events) {
      const version = publicEvent(event);
      if (version.content)
        return { version: { ...version, content: version.content }, created: { ...created, content: created.content }, head: newest.revision };
    }
    const last = events.at(-1);
    if (!last) break;
    from = last.revision - 1;
  }
  throw notFound(`match "${matchId}" has no version at revision ${revision}`);
}

const answer = async (read: () => Promise<unknown>) =>
  read().then(
    (value) => ({ value }),
    (error: Error) => ({ error: error.message }),
  );

t.test('readMatchAt gives what a scan of the stream gives, for versions among club sync outcomes, reading no event twice', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'readMatchAt-'));
  const store = openSqliteEventStore(join(dir, 'events.sqlite'), { deltas: { keyframeInterval: 4, cacheBytes: 1024 * 1024 } });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Each stream: a MatchCreated, then versions (true) and sync outcomes (false) in any order.
  const streams = fc.array(fc.boolean(), { maxLength: 40 });
  let n = 0;
  await fc.assert(
    fc.asyncProperty(streams, async (kinds) => {
      const matchId = `m${(n += 1)}`;
      const events: MatchStreamEvent[] = [
        {
          type: 'MatchCreated',
          data: { matchId, protection: 'unprotected', createdVia: 'PUT', payload: asJsonText(JSON.stringify({ v: 0, pad: 'x'.repeat(2000) })) },
        },
        ...kinds.map(
          (version, i): MatchStreamEvent =>
            version
              ? { type: 'MatchReplaced', data: { matchId, replacedVia: 'PUT', payload: asJsonText(JSON.stringify({ v: i + 1, pad: 'x'.repeat(2000) })) } }
              : { type: 'ClubSyncSkipped', data: { matchId, clubId: 'c1', teamId: 't1', reason: 'missing_key', keyId: null } },
        ),
      ];
      await store.appendToStream(
        matchStreamId(matchId),
        events.map((event) => ({ id: randomUUID(), type: event.type, data: encodeMatchStreamEvent(event), metadata: { schemaVersion: 1 } })),
        'no_stream',
      );
      for (let revision = 0; revision <= events.length; revision += 1) {
        const reads: number[] = [];
        const counted: EventStore = {
          ...store,
          async readStream(streamId: string, options?: ReadStreamOptions) {
            const read = await store.readStream(streamId, options);
            reads.push(...read.map((e) => e.revision));
            return read;
          },
        };
        holds.same(
          await answer(() => readMatchAt(counted, matchId, revision)),
          await answer(() => readMatchAtByScan(store, matchId, revision)),
          `at revision ${revision}`,
        );
        holds.equal(new Set(reads).size, reads.length, `no event read twice: ${reads} at revision ${revision}`);
      }
    }),
    { numRuns: numRuns(40) },
  );
});
