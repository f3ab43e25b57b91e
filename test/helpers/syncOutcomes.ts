import { clubPayload, createSyncWorld } from './syncWorld.js';

/**
 * Every way an upload can end for a club, written by the real commands: `given` two clubs
 * (Lakeside with a key and a revoked key, Hillcrest with its own key), `when` an upload to
 * Lakeside's U18 team for each enforcement mode × valid, missing, mistyped, another club's and
 * revoked key, plus per mode one naming no club and one naming a team that is not Lakeside's.
 */
export async function everySyncOutcome(t: { teardown(fn: () => void | Promise<void>): void }) {
  const world = createSyncWorld(t);
  const lakeside = await world.club('Lakeside VC', ['U16 Women', 'U18 Men']);
  const other = await world.club('Hillcrest');
  const revoked = await world.clubs.issueAppKey(lakeside.clubId, 'old tablet', world.context);
  await world.clubs.revokeAppKey(lakeside.clubId, revoked.keyId, world.context);
  const u18 = lakeside.teams[1]?.teamId ?? '';
  const given = await world.log();

  const typo = `${lakeside.key.slice(0, -1)}${lakeside.key.endsWith('x') ? 'y' : 'x'}`;
  const cases = [
    { id: 'log-valid', mode: 'log', key: lakeside.key, crm: false, outcome: 'synced', reason: null, copied: true },
    { id: 'log-missing', mode: 'log', key: null, crm: false, outcome: 'unauthenticated', reason: 'missing_key', copied: true },
    { id: 'log-typo', mode: 'log', key: typo, crm: false, outcome: 'unauthenticated', reason: 'malformed_key', copied: true },
    { id: 'log-other-club', mode: 'log', key: other.key, crm: false, outcome: 'unauthenticated', reason: 'unknown_key', copied: true },
    { id: 'log-revoked', mode: 'log', key: revoked.key, crm: false, outcome: 'unauthenticated', reason: 'revoked_key', copied: true },
    { id: 'enforce-valid', mode: 'enforce', key: lakeside.key, crm: false, outcome: 'synced', reason: null, copied: true },
    { id: 'enforce-missing', mode: 'enforce', key: null, crm: true, outcome: 'skipped', reason: 'missing_key', copied: false },
    { id: 'enforce-typo', mode: 'enforce', key: 'mlk_nonsense', crm: true, outcome: 'skipped', reason: 'malformed_key', copied: false },
    { id: 'enforce-other-club', mode: 'enforce', key: other.key, crm: true, outcome: 'skipped', reason: 'unknown_key', copied: false },
    { id: 'enforce-revoked', mode: 'enforce', key: revoked.key, crm: true, outcome: 'skipped', reason: 'revoked_key', copied: false },
  ] as const;

  /** Whether each upload was answered crmSync skipped_auth, by match id. */
  const syncSkipped = new Map<string, boolean>();
  for (const [i, c] of cases.entries()) {
    const result = await world.upload(clubPayload(lakeside.clubId, u18, { seed: i + 1, id: c.id }), { appKey: c.key, mode: c.mode });
    syncSkipped.set(c.id, result.syncSkipped);
  }
  for (const mode of ['log', 'enforce'] as const) {
    const noClub = await world.upload(clubPayload('zzzzzzzzzzzzzzzz', u18, { id: `${mode}-no-club` }), { appKey: lakeside.key, mode });
    syncSkipped.set(`${mode}-no-club`, noClub.syncSkipped);
    const noTeam = await world.upload(clubPayload(lakeside.clubId, 'nosuchteam', { id: `${mode}-no-team` }), { appKey: lakeside.key, mode });
    syncSkipped.set(`${mode}-no-team`, noTeam.syncSkipped);
  }
  return { lakeside, other, revoked, u18, cases, syncSkipped, given, when: await world.log(given) };
}
