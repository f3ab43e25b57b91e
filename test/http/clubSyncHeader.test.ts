import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { json, startTestApp } from '../helpers/testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };

/** A club with one team and one key, on a real server listening on loopback. */
async function clubServer(t: Parameters<typeof startTestApp>[0], env: Record<string, string> = {}) {
  const s = await startTestApp(t, env);
  const clubs = createClubCommands({ eventStore: s.engine.eventStore });
  const { clubId, teams } = await clubs.signUp(
    { clubName: 'Lakeside VC', email: `h${Math.random()}@lakeside.test`, password: 'correct horse battery', teams: ['U18 Girls'] },
    context,
  );
  const { key } = await clubs.issueAppKey(clubId, '', context);
  const revoked = await clubs.issueAppKey(clubId, 'old tablet', context);
  await clubs.revokeAppKey(clubId, revoked.keyId, context);
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const upload = async (body: Record<string, unknown>, appKey?: string) => {
    const response = await fetch(`${base}/api/matches`, {
      method: 'POST',
      headers: { ...json, origin: 'https://scorer.example', ...(appKey === undefined ? {} : { 'x-app-key': appKey }) },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      header: response.headers.get('matchlog-club-sync'),
      exposed: response.headers.get('access-control-expose-headers'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  return { clubId, teamId: teams[0]?.teamId ?? '', key, revokedKey: revoked.key, upload };
}

t.test('Matchlog-Club-Sync says how a club sync upload was judged; crmSync keeps the spec rule (only skipped_auth, only when skipped)', async (t) => {
  const { clubId, teamId, key, revokedKey, upload } = await clubServer(t);
  const synced = { clubId, teamId, homeTeam: { name: 'Lakeside', teamId } };
  const cases: [string, Record<string, unknown>, string | undefined, string, boolean][] = [
    ['a valid key', { ...synced, id: 'h1' }, key, 'processed', false],
    ['no key (log mode)', { ...synced, id: 'h2' }, undefined, 'flagged-no-key; reason=missing_key', false],
    ['a mistyped key', { ...synced, id: 'h3' }, 'mlk_nonsense', 'flagged-bad-key; reason=malformed_key', false],
    ['a revoked key (as a wrong or unknown one: the header never tells which)', { ...synced, id: 'h4' }, revokedKey, 'flagged-bad-key; reason=bad_key', false],
    ['a team the club does not have', { ...synced, id: 'h5', teamId: 'no-such-team' }, key, 'skipped; reason=no_such_team', true],
    ['a club that does not exist', { ...synced, id: 'h6', clubId: 'no-such-club' }, key, 'skipped; reason=no_such_club', true],
  ];
  for (const [what, body, appKey, header, skipped] of cases) {
    const answer = await upload(body, appKey);
    t.equal(answer.status, 201, `${what}: stored`);
    t.equal(answer.header, header, `${what}: ${header}`);
    t.equal(answer.body.crmSync, skipped ? 'skipped_auth' : undefined, `${what}: crmSync ${skipped ? 'skipped_auth' : 'absent'}`);
    t.match(answer.exposed ?? '', /Matchlog-Club-Sync/i, `${what}: a browser app may read the header (CORS)`);
  }
  t.equal((await upload({ id: 'h7' }, key)).header, null, 'no club sync attempted: no header');
  t.equal((await upload({ ...synced, id: 'h1' }, key)).header, 'processed', 'a retry of the same upload hears the same verdict');
});

t.test('under CLUB_SYNC_ENFORCEMENT=enforce a sync without a valid key is skipped, and the header says why', async (t) => {
  const { clubId, teamId, key, revokedKey, upload } = await clubServer(t, { CLUB_SYNC_ENFORCEMENT: 'enforce' });
  const missing = await upload({ id: 'e1', clubId, teamId });
  t.equal(missing.header, 'skipped; reason=missing_key');
  t.equal(missing.body.crmSync, 'skipped_auth');
  t.equal((await upload({ id: 'e2', clubId, teamId }, revokedKey)).header, 'skipped; reason=bad_key');
  t.equal((await upload({ id: 'e3', clubId, teamId }, key)).header, 'processed');
});
