import t from 'tap';
import { addressRefusal, allowedAddresses, webhookUrlProblem } from '../../src/domain/webhookAddress.js';
import { FORGOTTEN, webhookEventOf } from '../../src/domain/webhookEvents.js';
import type { ClubSyncEvent } from '../../src/domain/matchEvents.js';
import { RETRY_DELAYS_MS, retryDelayMs } from '../../src/domain/webhookSchedule.js';

const none = allowedAddresses([]);
if ('invalid' in none) throw new Error('no exceptions');

t.test("the retry schedule is Standard Webhooks': 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±20 %, then over", async (t) => {
  t.same(RETRY_DELAYS_MS, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  t.equal(retryDelayMs(1, 1, 0.5), 5_000, 'no jitter at the middle');
  t.equal(retryDelayMs(2, 1, 0), 240_000, '−20 % at the low end');
  t.equal(retryDelayMs(4, 1, 0.999999), Math.round(7_200_000 * 1.2 - 7_200_000 * 0.4 * 0.000001));
  t.equal(retryDelayMs(8, 1, 0.5), null, 'after eight attempts, no more');
  t.equal(retryDelayMs(3, 0.001, 0.5), 1_800, 'a scale shrinks it (tests)');
  const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
  t.ok(total > 27 * 3_600_000 && total < 28 * 3_600_000, 'over about 27.6 hours');
});

t.test('webhooks never go to loopback, private, link-local or unique-local addresses unless the operator allows them', async (t) => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.9',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
  ]) {
    t.match(
      addressRefusal(address, none),
      /address: webhooks go only to public addresses unless the operator allows this one \(WEBHOOK_ALLOW_PRIVATE\)/,
      address,
    );
  }
  t.match(addressRefusal('169.254.169.254', none), /link-local/);
  t.match(addressRefusal('::ffff:10.0.0.1', none), /^10\.0\.0\.1 is a private address/, 'an IPv4-mapped address is judged as IPv4');
  for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) t.equal(addressRefusal(address, none), null, address);
  const some = allowedAddresses(['127.0.0.1', '10.0.0.0/8', '::1']);
  if ('invalid' in some) throw new Error('valid');
  t.equal(addressRefusal('127.0.0.1', some), null);
  t.equal(addressRefusal('10.200.1.1', some), null, 'a range');
  t.equal(addressRefusal('::1', some), null);
  t.match(addressRefusal('127.0.0.2', some), /loopback/, 'only what is named');
  t.match(addressRefusal('192.168.0.1', some), /private/);
  t.same(allowedAddresses(['127.0.0.1', 'localhost']), { invalid: 'localhost' }, 'names are not exceptions: what they resolve to can change');
  t.same(allowedAddresses(['10.0.0.0/33']), { invalid: '10.0.0.0/33' });
});

t.test('an endpoint URL: http(s), no credentials, no forbidden literal address', async (t) => {
  t.equal(webhookUrlProblem('https://hooks.lakeside.example/matchlog', none), null);
  t.equal(webhookUrlProblem('http://localhost:8080/', none), null, 'a name is judged at connect time, on what it resolves to');
  t.match(webhookUrlProblem('http://127.0.0.1:8080/', none), /127\.0\.0\.1 is a loopback address/);
  t.match(webhookUrlProblem('http://10.0.0.5/', none), /10\.0\.0\.5 is a private address/);
  t.match(webhookUrlProblem('http://[::1]:9000/', none), /::1 is a loopback address/);
  t.match(webhookUrlProblem('ftp://example.org/', none), /must start with https:\/\//);
  t.match(webhookUrlProblem('https://user:pw@example.org/', none), /leave the user name and password out/);
  t.match(webhookUrlProblem('example.org/hook', none), /give the full URL/);
});

const accepted: ClubSyncEvent = { type: 'ClubSyncAccepted', data: { matchId: 'm', clubId: 'c', teamId: 't', keyId: 'k', side: 'home' } };
const flagged: ClubSyncEvent = {
  type: 'ClubSyncUnauthenticated',
  data: { matchId: 'm', clubId: 'c', teamId: 't', keyId: null, side: 'home', reason: 'missing_key' },
};
const skipped: ClubSyncEvent = { type: 'ClubSyncSkipped', data: { matchId: 'm', clubId: 'c', teamId: 't', keyId: null, reason: 'no_such_team' } };

t.test('one webhook event per sync outcome: synced first, changed later, final once, flagged without a valid key', async (t) => {
  const first = webhookEventOf(accepted, 'live', FORGOTTEN);
  t.same(first, { type: 'match.synced', memory: { synced: true, final: false } });
  const second = webhookEventOf(accepted, 'live', first.memory);
  t.equal(second.type, 'match.changed');
  const final = webhookEventOf(accepted, 'final', second.memory);
  t.same(final, { type: 'match.final', memory: { synced: true, final: true } });
  t.equal(webhookEventOf(accepted, 'final', final.memory).type, 'match.changed', 'a correction after the final is a change');
  t.equal(webhookEventOf(accepted, 'final', FORGOTTEN).type, 'match.final', 'uploaded final at once: final');
  t.same(webhookEventOf(flagged, 'live', FORGOTTEN), { type: 'sync.flagged', memory: { synced: true, final: false } }, 'flagged, but copied');
  t.same(webhookEventOf(skipped, 'final', FORGOTTEN), { type: 'sync.flagged', memory: FORGOTTEN }, 'skipped: nothing copied, nothing learnt');
});
