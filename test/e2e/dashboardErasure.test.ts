import { createHash } from 'node:crypto';
import t from 'tap';
import { readErasureLedger } from '../../src/platform/erasureLedger.js';
import { startTestApp } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';

const REASON = 'the parent of #7 asked on 3 May';

async function world(t: Parameters<typeof startTestApp>[0]) {
  const s = await startTestApp(t);
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await clubWithAppKey(base);
  await club.upload('erase-me');
  return { ...s, base, club };
}

t.test("a club admin erases one of the club's matches from the dashboard: confirm step, reason, the operator's erasure", async (t) => {
  const w = await world(t);
  t.equal((await fetch(`${w.base}/api/matches/erase-me`)).status, 200);
  const match = await w.club.client.get('/dashboard/matches/erase-me');
  t.match(match.body, 'href="/dashboard/matches/erase-me/erase"', "the match's page offers it");
  const confirm = await w.club.client.get('/dashboard/matches/erase-me/erase');
  t.equal(confirm.statusCode, 200);
  t.match(confirm.body, /Erase this match for good/);
  t.match(confirm.body, /name="reason" required/);
  t.match(confirm.body, /name="confirm" value="yes" required/);

  const res = await w.club.client.post('/dashboard/matches/erase-me/erase', { reason: REASON, confirm: 'yes' });
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/dashboard/matches?done=match-erased');
  t.match((await w.club.client.get('/dashboard/matches?done=match-erased')).body, /The match was erased/);
  t.equal((await fetch(`${w.base}/api/matches/erase-me`)).status, 410, 'the API answers 410');
  t.equal((await fetch(`${w.base}/match/erase-me`)).status, 410, 'so does its page');
  t.equal((await w.club.client.get('/dashboard/matches/erase-me')).statusCode, 404, 'the dashboard no longer has it');

  const erased = (await w.engine.eventStore.readStream('match-erase-me')).find((event) => event.type === 'MatchErased');
  const data = JSON.parse(erased?.data ?? '{}') as Record<string, unknown>;
  t.equal(data.reason, REASON, 'the log keeps why');
  t.same(data.askedBy, { clubId: w.club.clubId, adminEmail: 'admin@lakeside.test' }, 'and who asked');
  t.equal(erased?.metadata.logFacts?.via, 'operator', "the public log's entry says the operator erased it");
  const ledger = readErasureLedger(w.config.erasureLedger);
  t.equal(ledger.length, 1);
  t.match(ledger[0], { matchId: 'erase-me', by: 'dashboard', reasonSha256: createHash('sha256').update(REASON).digest('hex') }, 'the erasure ledger has it');
  t.notMatch(JSON.stringify(ledger), /parent/, 'never the reason itself');
});

t.test('what cannot be erased is refused with the reason, and nothing changes', async (t) => {
  const w = await world(t);
  await w.club.client.get('/dashboard/matches/erase-me/erase');
  let res = await w.club.client.post('/dashboard/matches/erase-me/erase', { reason: REASON });
  t.equal(res.statusCode, 400, 'not confirmed');
  t.match(res.body, /tick &quot;I understand that this erases the match for good&quot;|tick "I understand/);
  t.match(res.body, REASON.replace('#', '#'), 'the reason stays in the form');
  res = await w.club.client.post('/dashboard/matches/erase-me/erase', { reason: '   ', confirm: 'yes' });
  t.equal(res.statusCode, 400, 'no reason');
  t.match(res.body, /give the reason for the erasure/);
  res = await w.club.client.post('/dashboard/matches/erase-me/erase', { reason: REASON, confirm: 'yes' }, { csrf: null });
  t.equal(res.statusCode, 403, 'no CSRF token');

  const other = await clubWithAppKey(w.base, 'admin@hillcrest.test');
  t.equal((await other.client.get('/dashboard/matches/erase-me/erase')).statusCode, 404, "another club's admin does not see it");
  await other.client.get('/dashboard/connect');
  res = await other.client.post('/dashboard/matches/erase-me/erase', { reason: REASON, confirm: 'yes' });
  t.equal(res.statusCode, 404, 'nor erases it: only matches synced into the club');
  t.match(res.body, /no match erase-me was synced into this club/);

  await fetch(`${w.base}/api/matches/not-synced`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"sport":"volleyball"}' });
  await w.club.client.get('/dashboard/connect');
  res = await w.club.client.post('/dashboard/matches/not-synced/erase', { reason: REASON, confirm: 'yes' });
  t.equal(res.statusCode, 404, 'a match that never synced into the club');

  t.equal((await fetch(`${w.base}/api/matches/erase-me`)).status, 200, 'still there');
  t.equal((await fetch(`${w.base}/api/matches/not-synced`)).status, 200);
  t.same(readErasureLedger(w.config.erasureLedger), [], 'the ledger is empty');
});
