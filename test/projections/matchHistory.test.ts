import t from 'tap';
import { asJsonText } from '../../src/domain/jsonText.js';
import { DIFF_BASIS_FORMAT, diffMatch } from '../../src/domain/matchDiff.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';
import { collectionOf } from '../../src/readmodel/readModel.js';
import { encodeMatchStreamEvent, type MatchStreamEvent } from '../../src/domain/matchEvents.js';
import type { RecordedEvent } from '../../src/eventstore/eventStore.js';
import { BASIS_AT_ONCE_CHARS, matchHistoryProjection } from '../../projections/matchHistory.js';
import { historyEntryId, MATCH_HISTORY, readHistoryEntries } from '../../src/readmodel/matchHistoryDocs.js';
import { projectionSpec, recorded } from '../helpers/projectionSpec.js';
import { diffBasisOfText } from '../../src/domain/matchDiffText.js';
import { BASIS_TEXT_FROM_CHARS } from '../../src/domain/storedBasis.js';
import { createHelperThread } from '../../src/runtime/helperThread.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { applyBatch } from '../../projections/unitOfWork.js';
import type { EventLog, OffLoopWork } from '../../projections/projection.js';

const given = projectionSpec(matchHistoryProjection);
const at = (position: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, position)).toISOString();
const stored = (matchId: string, revision: number, position: number, event: MatchStreamEvent): RecordedEvent => ({
  ...recorded(`match-${matchId}`, revision, position, { type: event.type, data: encodeMatchStreamEvent(event) }),
  metadata: { requestId: `req-${position}`, clientAddressClass: 'private', schemaVersion: 1 },
});
const created = (matchId: string, position: number, payload: string) =>
  stored(matchId, 0, position, {
    type: 'MatchCreated',
    data: { matchId, protection: 'protected', createdVia: 'POST', writeTokenHash: 'hmac-sha256:v1:x', payload: asJsonText(payload) },
  });
const replaced = (matchId: string, revision: number, position: number, payload: string) =>
  stored(matchId, revision, position, { type: 'MatchReplaced', data: { matchId, replacedVia: 'PUT', payload: asJsonText(payload) } });
const v1 = '{"homeTeam":{"name":"Herons","setsWon":1},"awayTeam":{"name":"Owls","setsWon":3},"note":"first"}';
const v2 = '{"homeTeam":{"name":"Lakeside Herons","setsWon":3},"awayTeam":{"name":"Owls","setsWon":1},"note":"corrected"}';
const page = { order: 'oldest', limit: 10, offset: 0 } as const;

t.test('a creation is an entry saying how it came, its protection (never the hash) and who asked, with no diff', async (t) => {
  await given([])
    .when([created('a', 1, v1)])
    .then(t, MATCH_HISTORY, [
      {
        id: historyEntryId('a', 0),
        matchId: 'a',
        revision: 0,
        position: 1,
        type: 'MatchCreated',
        recordedAt: at(1),
        requestId: 'req-1',
        clientAddressClass: 'private',
        via: 'POST',
        protection: 'protected',
        diff: null,
        details: null,
      },
    ]);
});

t.test('a replacement is an entry with what changed since the version before it', async (t) => {
  await given([created('a', 1, v1)])
    .when([replaced('a', 1, 4, v2)])
    .thenRead(t, async (read) => {
      const [, entry] = await readHistoryEntries(read, 'a', page);
      t.match(entry, { revision: 1, position: 4, type: 'MatchReplaced', via: 'PUT', protection: null, details: null });
      t.match(entry?.diff, {
        score: { home: { from: 1, to: 3 }, away: { from: 3, to: 1 } },
        teams: [{ side: 'home', from: 'Herons', to: 'Lakeside Herons' }],
        fields: [{ field: 'note', change: 'changed', from: 'first', to: 'corrected' }],
      });
    });
});

t.test("a first version's diff basis is made only when a next version needs it, from its payload in the log", async (t) => {
  const bases = collectionOf<{ id: string; revision: number; format?: number; basis: unknown }>('matchHistoryBasis');
  await given([])
    .when([created('a', 1, v1)])
    .thenRead(t, async (read) => {
      t.match(await read.get(bases, 'a'), { revision: 0, format: 0, basis: null }, 'uploaded once: nothing parsed, nothing to compare yet');
    });
  await given([created('a', 1, v1)])
    .when([replaced('a', 1, 2, v2)])
    .thenRead(t, async (read) => {
      t.match(await read.get(bases, 'a'), { revision: 1, format: DIFF_BASIS_FORMAT, basis: { actions: '' } }, 'replaced: the new version has its basis made');
      const [, entry] = await readHistoryEntries(read, 'a', page);
      t.match(entry?.diff, { score: { home: { from: 1, to: 3 } } }, 'compared with the first version, read back from the log');
    });
});

t.test('each version is compared with the one just before it, not with the first', async (t) => {
  const v3 = v2.replace('"corrected"', '"final"');
  await given([created('a', 1, v1), replaced('a', 1, 2, v2)])
    .when([replaced('a', 2, 3, v3)])
    .thenRead(t, async (read) => {
      const entries = await readHistoryEntries(read, 'a', page);
      t.equal(entries.length, 3);
      t.equal(entries[2]?.diff?.score, null, 'the score did not change since v2');
      t.same(entries[2]?.diff?.teams, [], 'nor the team names');
      t.same(entries[2]?.diff?.fields, [{ field: 'note', change: 'changed', from: 'corrected', to: 'final' }]);
    });
});

t.test('club sync outcomes are entries with their public details only: club, team, whether copied (never the key or the reason)', async (t) => {
  const accepted = stored('a', 1, 2, { type: 'ClubSyncAccepted', data: { matchId: 'a', clubId: 'c1', teamId: 't1', keyId: 'k-secret', side: 'home' } });
  const skipped = stored('a', 3, 4, { type: 'ClubSyncSkipped', data: { matchId: 'a', clubId: 'c1', teamId: 't1', keyId: null, reason: 'revoked_key' } });
  await given([created('a', 1, v1)])
    .when([accepted, replaced('a', 2, 3, v2), skipped])
    .thenRead(t, async (read) => {
      const entries = await readHistoryEntries(read, 'a', page);
      t.same(
        entries.map((e) => e.type),
        ['MatchCreated', 'ClubSyncAccepted', 'MatchReplaced', 'ClubSyncSkipped'],
      );
      t.match(entries[1], { via: null, protection: null, diff: null, details: { clubId: 'c1', teamId: 't1', copied: true } });
      t.same(entries[3]?.details, { clubId: 'c1', teamId: 't1', copied: false });
      t.notMatch(JSON.stringify(entries), /k-secret|revoked_key|hmac/, 'no key, reason or hash');
      t.match(entries[2]?.diff, { fields: [{ field: 'note', change: 'changed' }] }, 'a sync outcome between two versions does not change what is compared');
    });
});

t.test('an old version delivered again after a newer one (a redelivery past the checkpoint) changes nothing', async (t) => {
  await given([created('a', 1, v1), replaced('a', 1, 2, v2)])
    .when([created('a', 3, v1)], { times: 1 })
    .thenRead(t, async (read) => {
      const entries = await readHistoryEntries(read, 'a', page);
      t.same(
        entries.map((e) => e.revision),
        [0, 1],
      );
      t.match(entries[1]?.diff, { fields: [{ field: 'note', change: 'changed' }] }, 'the newer diff stays');
    });
});

t.test('matches have histories of their own; events of other streams have none', async (t) => {
  const other = recorded('club-x', 0, 3, { type: 'ClubRegistered', data: '{"name":"x"}' });
  await given([created('a', 1, v1), created('b', 2, v1)])
    .when([other, replaced('b', 1, 4, v2)])
    .thenRead(t, async (read) => {
      t.same(
        (await readHistoryEntries(read, 'a', page)).map((e) => e.revision),
        [0],
      );
      t.same(
        (await readHistoryEntries(read, 'b', page)).map((e) => e.revision),
        [0, 1],
      );
      t.equal((await read.find(MATCH_HISTORY)).length, 3, 'nothing for the club stream');
    });
});

t.test('a history reads by revision, oldest or newest first, a page at a time', async (t) => {
  const versions = [created('a', 1, v1), ...[1, 2, 3, 4].map((revision) => replaced('a', revision, revision + 1, v1.replace('first', `v${revision}`)))];
  await given([])
    .when(versions)
    .thenRead(t, async (read) => {
      t.same(
        (await readHistoryEntries(read, 'a', { order: 'newest', limit: 2, offset: 0 })).map((e) => e.revision),
        [4, 3],
      );
      t.same(
        (await readHistoryEntries(read, 'a', { order: 'oldest', limit: 2, offset: 2 })).map((e) => e.revision),
        [2, 3],
      );
    });
});

t.test("a live match: each rally's entry is the diff of its version and the one before, its basis made from the previous one", async (t) => {
  const uploads = liveMatchUploads().slice(0, 40);
  const events = uploads.map((payload, i) => (i === 0 ? created('live', 1, payload) : replaced('live', i, i + 1, payload)));
  await given([])
    .when(events)
    .thenRead(t, async (read) => {
      const entries = await readHistoryEntries(read, 'live', { order: 'oldest', limit: 100, offset: 0 });
      t.equal(entries.length, uploads.length);
      const expected = uploads.map((payload, i) => (i === 0 ? null : diffMatch(JSON.parse(uploads[i - 1]!), JSON.parse(payload))));
      t.same(
        entries.map((entry) => entry.diff),
        expected,
      );
      t.ok(
        entries.slice(1).every((entry) => entry.diff !== null && entry.diff.actions.added > 0 && entry.diff.actions.removed + entry.diff.actions.changed === 0),
        'each rally: actions added, none removed or edited',
      );
    });
});

/** A payload of at least BASIS_TEXT_FROM_CHARS characters. */
const large = (note: string, setsWon: number) =>
  JSON.stringify({ homeTeam: { name: 'Herons', setsWon }, awayTeam: { name: 'Owls', setsWon: 1 }, note, filler: 'x'.repeat(BASIS_TEXT_FROM_CHARS) });

t.test("a large payload's basis is kept as its JSON text, a small one's as itself; the diffs are the same either way", async (t) => {
  const bases = collectionOf<{ id: string; revision: number; basis: unknown }>('matchHistoryBasis');
  const versions = [large('first', 1), large('second', 2), v2, large('fourth', 3)];
  const events = versions.map((payload, i) => (i === 0 ? created('a', 1, payload) : replaced('a', i, i + 1, payload)));
  for (const [i, payload] of versions.entries()) {
    if (i === 0) continue;
    await given(events.slice(0, i))
      .when([events[i] as RecordedEvent])
      .thenRead(t, async (read) => {
        const basis = diffBasisOfText(payload, null);
        t.same((await read.get(bases, 'a'))?.basis, payload.length >= BASIS_TEXT_FROM_CHARS ? JSON.stringify(basis) : basis, `version ${i}`);
        const entry = (await readHistoryEntries(read, 'a', page))[i];
        t.same(entry?.diff, diffMatch(JSON.parse(versions[i - 1] as string), JSON.parse(payload)), `version ${i}: its diff`);
      });
  }
});

t.test("a large first version's basis is made at once, as it would be made from the log later", async (t) => {
  const bases = collectionOf<{ id: string; revision: number; format?: number; basis: unknown }>('matchHistoryBasis');
  const first = JSON.stringify({ homeTeam: { name: 'Herons', setsWon: 1 }, awayTeam: { name: 'Owls', setsWon: 1 }, filler: 'x'.repeat(BASIS_AT_ONCE_CHARS) });
  await given([])
    .when([created('a', 1, first)])
    .thenRead(t, async (read) => {
      t.same(await read.get(bases, 'a'), { id: 'a', revision: 0, format: DIFF_BASIS_FORMAT, basis: JSON.stringify(diffBasisOfText(first, null)) });
    });
  await given([])
    .when([created('b', 1, large('smaller', 1))])
    .thenRead(t, async (read) => {
      t.match(await read.get(bases, 'b'), { format: 0, basis: null }, 'one below BASIS_AT_ONCE_CHARS waits, however large its basis text');
    });
  await given([created('a', 1, first)])
    .when([replaced('a', 1, 2, v2)])
    .thenRead(t, async (read) => {
      const entry = (await readHistoryEntries(read, 'a', page))[1];
      t.same(entry?.diff, diffMatch(JSON.parse(first), JSON.parse(v2)), 'the next version is compared with it');
    });
});

t.test('the history made with the helper thread is the one made in place, document for document', async (t) => {
  const thread = createHelperThread({ minBytes: 1, onFailure: (error) => t.fail(String(error)) });
  t.teardown(() => thread.close());
  const live = liveMatchUploads().slice(0, 12);
  const events = [
    ...[large('first', 1), large('second', 2), v2, large('fourth', 3), v1].map((payload, i) =>
      i === 0 ? created('a', 1, payload) : replaced('a', i, i + 1, payload),
    ),
    ...live.map((payload, i) => (i === 0 ? created('live', 10, payload) : replaced('live', i, i + 10, payload))),
  ];
  // The first versions' bases are made from the log when their next version comes.
  const log: EventLog = {
    readStream: async (streamId, { fromRevision = 0 } = {}) => events.filter((e) => e.streamId === streamId && e.revision >= fromRevision),
  };
  const documents = async (offLoop: OffLoopWork | null) => {
    const store = openSqliteReadModel(':memory:');
    t.teardown(() => store.close());
    // One event a batch, as a write commits it: each version is compared with the stored basis.
    for (const event of events)
      await store.commit(
        MATCH_HISTORY,
        await applyBatch(matchHistoryProjection, store, [event], undefined, log, undefined, offLoop),
        event.position,
        await store.getCheckpoint(MATCH_HISTORY),
      );
    return [await store.find(MATCH_HISTORY), await store.find('matchHistoryBasis')];
  };
  t.same(await documents(thread), await documents(null));
  t.ok(thread.answered().versionDiff > 0, 'the versions were compared on the thread');
});
