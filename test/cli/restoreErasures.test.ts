import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { undoneByRestore } from '../../src/cli/rollbackReport.js';
import { encodeClubEvent } from '../../src/domain/clubEvents.js';
import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { readErasureLedger, reasonDigest } from '../../src/platform/erasureLedger.js';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startServerProcess, waitUntilReady } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

const base = JSON.parse(fixtureText({ seed: 9 })) as Record<string, unknown>;
const post = (url: string, id: string) => fetch(`${url}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ ...base, id }) });

t.test('a restore never brings back a payload someone erased: matchlog erase keeps a ledger, restore re-applies it and says what it undoes', async (t) => {
  const source = tempDataDir(t, 'matchlog-live-');
  const ledger = join(tempDataDir(t, 'matchlog-ledger-'), 'erasures.ledger');
  const env = { DATA_DIR: source, ERASURE_LEDGER: ledger };
  const live = await startServerProcess(env);
  t.equal((await post(live.url, 'kept')).status, 201);
  t.equal((await post(live.url, 'forgotten')).status, 201);
  live.child.kill('SIGTERM');
  await live.exited;
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  t.equal((await runMatchlog(['backup', backup], env)).code, 0);

  const erased = await runMatchlog(['erase', 'forgotten', '--reason', 'the player asked (Jane Roe)'], env);
  t.equal(erased.code, 0, erased.stderr);
  t.match(erased.stdout, /recorded in the erasure ledger /);
  const entries = readErasureLedger(ledger);
  t.match(entries, [{ matchId: 'forgotten', reasonSha256: reasonDigest('the player asked (Jane Roe)'), by: 'operator' }]);
  t.notMatch(readFileSync(ledger, 'utf8'), /Jane/, 'no reason text in the ledger');

  // Without a ledger the restore says the erasure is undone, and how to re-apply it.
  const bare = tempDataDir(t, 'matchlog-bare-');
  const unaware = await runMatchlog(['restore', backup], { DATA_DIR: bare });
  t.equal(unaware.code, 0, unaware.stderr);
  t.match(unaware.stdout, /whatever was recorded after it is undone \(uploads, erasures, app-key revocations, dashboard logouts\)/);
  t.match(unaware.stdout, /no erasure ledger was re-applied: a match erased after the backup is back in the log; run matchlog restore --reapply-erasures/);

  const target = tempDataDir(t, 'matchlog-target-');
  const restored = await runMatchlog(['restore', backup, '--reapply-erasures', ledger, '--previous', source], { DATA_DIR: target });
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /this undoes \d+ event\(s\) of .*:\n {2}- the erasure of match forgotten \(/);
  t.match(restored.stdout, /^erasure of forgotten \(.*\): erased again$/m);
  t.match(readErasureLedger(join(target, 'erasures.ledger')), [{ matchId: 'forgotten' }], "carried into the new DATA_DIR's ledger");

  const server = await startServerProcess({ DATA_DIR: target });
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  await waitUntilReady(server.url);
  t.equal((await fetch(`${server.url}/api/matches/forgotten`)).status, 410, 'erased again');
  t.equal((await fetch(`${server.url}/api/matches/kept`)).status, 200);
});

t.test('what a rollback undoes is read from the log it replaces: erasures, app-key revocations, dashboard logouts', async (t) => {
  const dir = tempDataDir(t, 'matchlog-previous-');
  const log = openSqliteEventStore(join(dir, 'events.sqlite'));
  const metadata = { schemaVersion: 1 };
  const club = (type: 'AppKeyRevoked' | 'AdminLoggedOut', data: object) => ({
    id: randomUUID(),
    type,
    data: JSON.stringify({ schemaVersion: 1, ...data }),
    metadata,
  });
  const first = { id: randomUUID(), type: 'TeamAdded', data: encodeClubEvent({ type: 'TeamAdded', data: { teamId: 't1', name: 'Herons' } }), metadata };
  const head = await log.appendToStream('club-c1', [first], 'any');
  await log.appendToStream('club-c1', [club('AppKeyRevoked', { keyId: 'k1', revokedAt: '2025-06-02T10:00:00.000Z' })], 'any');
  await log.appendToStream('club-c1', [club('AdminLoggedOut', { at: '2025-06-02T11:00:00.000Z' })], 'any');
  await log.appendToStream('match-m1', [{ id: randomUUID(), type: 'MatchErased', data: '{}', metadata }], 'any');
  await log.close();

  const { lines, others } = await undoneByRestore(join(dir, 'events.sqlite'), head.position, first.id);
  t.match(lines, [
    /revocation of club c1's app key k1 \(2025-06-02T10:00:00.000Z\): revoke it again/,
    /club c1's dashboard logout .*log out again/,
    /erasure of match m1/,
  ]);
  t.equal(others, 0);
  await t.rejects(undoneByRestore(join(dir, 'events.sqlite'), head.position, randomUUID()), /is not the log this backup was taken from/);
});
