import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { EsdbClient } from '../../src/eventstore/esdbClient.js';
import { createEsdbEventStore } from '../../src/eventstore/esdbEventStore.js';
import { DomainError } from '../../src/domain/errors.js';
import { encodeMatchEvent } from '../../src/domain/matchEvents.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { type EventStore, StreamErasedError } from '../../src/eventstore/eventStore.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';
import { allProjections } from '../../projections/all.js';
import { esdbMemoryServer } from '../helpers/esdbMemoryServer.js';
import { documentsHolding, ERASURE_MARKER, erasureWriters, markedPayload, replayEveryProjection } from '../helpers/erasureWorld.js';
import { tempDataDir } from '../helpers/testApp.js';

/**
 * Issue 58 N1, reproduced as it was found: two processes (two stores) over one EventStoreDB.
 * No EventStoreDB server can run here: these use the in-memory stand-in for @eventstore/db-client
 * 6.2.1 (test/helpers/esdbMemoryServer.ts); test/contract/esdb.test.ts runs on a real one with ESDB_URL.
 */
t.comment('no EventStoreDB server here: two stand-in stores over one in-memory server (test/helpers/esdbMemoryServer.ts), not a real server');

const openStore = (client: EsdbClient, keyRecheckMs = 60_000): EventStore =>
  createEsdbEventStore({ client, appendCredentials: { username: 'matchlog', password: 'pw' }, deadlineMs: 5000 }, { appendRetryDelayMs: 1, keyRecheckMs });

/** Two processes over one server, a club, and a synced match of three versions uploaded through the first. */
async function twoProcesses(t: Test, keyRecheckMs = 60_000) {
  const server = esdbMemoryServer();
  const first = openStore(server.client);
  const second = openStore(server.client, keyRecheckMs);
  t.teardown(() => Promise.all([first.close(), second.close()]));
  const writers = [erasureWriters(first), erasureWriters(second)] as const;
  const club = await writers[0].club('Owls');
  const matchId = `m-${randomUUID().slice(0, 8)}`;
  for (const seed of [1, 2, 3]) await writers[0].upload(matchId, markedPayload(club.clubId, club.teamId, matchId, seed), club.key);
  return { server, first, second, writers, club, matchId };
}

t.test('N1: the record of an erasure reads as written, in the erasing process and another, before and after the key is read again', async (t) => {
  const { server, first, second, writers, matchId } = await twoProcesses(t);
  t.ok((await second.readStream(`match-${matchId}`)).length > 0, 'the other process has read the match (and holds its key)');
  await writers[0].erase(matchId);
  for (const [name, store] of [
    ['erasing process', first],
    ['other process', second],
    ['new process', openStore(server.client)],
  ] as const) {
    const record = (await store.readStream(`match-${matchId}`)).at(-1);
    t.equal(record?.type, 'MatchErased', `${name}: the last event is the erasure`);
    t.equal(record?.erased, undefined, `${name}: not itself erased`);
    t.match(JSON.parse(record?.data ?? '{}'), { matchId, reason: 'a parent asked' }, `${name}: its data as written`);
  }
});

t.test('N1: an erased id is refused (410) on another process, whether it held the key or not, and nothing is appended', async (t) => {
  const { server, writers, club, matchId } = await twoProcesses(t);
  // The other process has uploaded to the match before: it holds the key and a cached state.
  await writers[1].upload(matchId, markedPayload(club.clubId, club.teamId, matchId, 4), club.key);
  await writers[0].erase(matchId);
  const before = server.stored(`match-${matchId}`).length;
  const retry = await writers[1].upload(matchId, markedPayload(club.clubId, club.teamId, matchId, 5), club.key).catch((error: unknown) => error);
  t.ok(retry instanceof DomainError && retry.code === 'gone', `the upload is answered 410: ${String(retry)}`);
  const fresh = erasureWriters(openStore(server.client));
  const again = await fresh.upload(matchId, markedPayload(club.clubId, club.teamId, matchId, 6), club.key).catch((error: unknown) => error);
  t.ok(again instanceof DomainError && again.code === 'gone', `and from a new process: ${String(again)}`);
  t.equal(server.stored(`match-${matchId}`).length, before, 'nothing appended');
  t.notOk(server.storedBytes().includes(ERASURE_MARKER), 'the marker is in no byte the server holds');
});

t.test('N1: an append to a match stream whose key is erased is refused with StreamErasedError, but for the record of the erasure', async (t) => {
  const { server, first, second, writers, matchId } = await twoProcesses(t, 0);
  await writers[0].erase(matchId);
  const streamId = `match-${matchId}`;
  const end = server.stored(streamId).length - 1;
  const replaced = {
    id: randomUUID(),
    type: 'MatchReplaced',
    data: `{"schemaVersion":1,"payload":{"name":"${ERASURE_MARKER}"}}`,
    metadata: { schemaVersion: 1 },
  };
  for (const store of [first, second]) await t.rejects(store.appendToStream(streamId, [replaced], end), StreamErasedError);
  await t.rejects(second.appendToStream(streamId, [replaced], 'any'), StreamErasedError, 'with any expected revision');
  const record = {
    id: randomUUID(),
    type: 'MatchErased',
    data: `{"schemaVersion":1,"matchId":"${matchId}","reason":"again","versions":[],"syncs":[]}`,
    metadata: { schemaVersion: 1 },
  };
  await second.appendToStream(streamId, [record], end);
  t.equal((await first.readStream(streamId)).at(-1)?.data, record.data, 'a record of the erasure is taken, and reads as written');
  t.notOk(server.storedBytes().includes(ERASURE_MARKER), 'the marker was never stored');
});

t.test('N1: every projection replays past an erasure of a synced match, from the start, in a new process; no document holds the marker', async (t) => {
  const { server, writers, matchId } = await twoProcesses(t);
  await writers[0].erase(matchId);
  const readModel = openSqliteReadModel(join(tempDataDir(t), 'readmodel.sqlite'));
  t.teardown(() => readModel.close());
  const store = openStore(server.client);
  t.teardown(() => store.close());
  const head = await store.headPosition();
  const reached = await replayEveryProjection(store, readModel);
  t.same(
    allProjections.filter((projection) => reached.get(projection.name) !== head).map((projection) => projection.name),
    [],
    'no projection stalls',
  );
  t.same(await documentsHolding(readModel, ERASURE_MARKER), [], 'no document holds the marker');
  const syncs = (await store.readStream(`match-${matchId}`)).filter((event) => event.type.startsWith('ClubSync'));
  t.ok(syncs.length > 0 && syncs.every((event) => event.erased === undefined), 'the club sync outcomes stay readable, as on SQLite');
});

t.test('N1: a match written before payload salts existed is erased, and every projection replays past it', async (t) => {
  const server = esdbMemoryServer();
  const store = openStore(server.client);
  t.teardown(() => store.close());
  const matchId = `old-${randomUUID().slice(0, 8)}`;
  const payload = asJsonText(JSON.stringify({ homeTeam: { name: ERASURE_MARKER }, awayTeam: { name: 'Lynx' }, sport: 'volleyball' }));
  const payloadDigest = createHash('sha256').update(payload).digest('hex');
  const created = encodeMatchEvent({ type: 'MatchCreated', data: { matchId, protection: 'unprotected', createdVia: 'POST', payloadDigest, payload } });
  await store.appendToStream(`match-${matchId}`, [{ id: randomUUID(), type: 'MatchCreated', data: created, metadata: { schemaVersion: 1 } }], 'no_stream');
  const erased = await erasureWriters(store)
    .erase(matchId)
    .catch((error: unknown) => error);
  t.notOk(erased instanceof Error, `erased: ${erased instanceof Error ? erased.message : 'yes'}`);
  const [version] = await openStore(server.client).readStream(`match-${matchId}`);
  t.same([version?.erased, version?.metadata.payloadSha256], [true, payloadDigest], 'the erased version keeps the digest its transparency-log leaf commits to');
  const readModel = openSqliteReadModel(join(tempDataDir(t), 'readmodel.sqlite'));
  t.teardown(() => readModel.close());
  const head = await store.headPosition();
  const reached = await replayEveryProjection(openStore(server.client), readModel);
  t.same(
    allProjections.filter((projection) => reached.get(projection.name) !== head).map((projection) => projection.name),
    [],
    'no projection stalls',
  );
  t.same(await documentsHolding(readModel, ERASURE_MARKER), [], 'no document holds the marker');
});
