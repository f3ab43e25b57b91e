import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

/** A listening app whose webhooks may reach loopback (tests' receivers), with the retry schedule shrunk 1000×. */
async function world(t: Parameters<typeof startTestApp>[0], env: Record<string, string> = {}) {
  const s = await startTestApp(t, { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001', ...env });
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await clubWithAppKey(base);
  const receiver = await startWebhookReceiver(t);
  return { ...s, base, club, receiver };
}

const bodyOf = (text: string) => JSON.parse(text) as { type: string; timestamp: string; data: Record<string, unknown> };

t.test('each sync reaches the endpoint signed (Standard Webhooks), its webhook-id the log event id, typed synced, changed, final or flagged', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced', 'match.changed', 'match.final', 'sync.flagged']);
  t.equal(endpoint.status, 200);
  t.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'the secret is shown once, on the answer to the form');
  w.receiver.state.secrets = [endpoint.secret];

  await w.club.upload('wh-match-1', { version: 1 });
  await w.club.upload('wh-match-1', { version: 2 });
  await w.club.upload('wh-match-1', { version: 3, status: 'final' });
  const answered = Date.now();
  await w.club.upload('wh-match-2', { version: 1, withKey: false });
  const got = await eventually('four webhooks', () => w.receiver.received.length >= 4 && w.receiver.received);
  t.comment(`the last upload's answer to its webhook's arrival: ${(got[3]?.at ?? 0) - answered} ms (upload included)`);
  t.same(
    got.map((r) => bodyOf(r.body).type),
    ['match.synced', 'match.changed', 'match.final', 'sync.flagged'],
    'in log order, one per club sync outcome',
  );
  t.ok(
    got.every((r) => r.verified),
    'every one verifies with the standardwebhooks package',
  );
  const syncIds = [...(await w.engine.eventStore.readStream('match-wh-match-1')), ...(await w.engine.eventStore.readStream('match-wh-match-2'))]
    .filter((e) => e.type.startsWith('ClubSync'))
    .map((e) => e.id);
  t.same(
    got.map((r) => r.id),
    syncIds,
    "the webhook-id of each is its log event's id",
  );
  const final = bodyOf(got[2]?.body ?? '{}');
  t.equal(final.data.matchId, 'wh-match-1');
  t.equal(final.data.status, 'final');
  t.equal(final.data.clubId, w.club.clubId);
  t.equal(final.data.matchUrl, 'http://matchlog.test/match/wh-match-1');
  t.notMatch(got[2]?.body ?? '', /Ana Jensen/, 'no player is named in a body');
  t.equal(bodyOf(got[3]?.body ?? '{}').data.reason, 'missing_key');
  t.ok(Math.abs(Number(got[0]?.timestamp) - Date.now() / 1000) < 60, 'webhook-timestamp is the attempt time, in seconds');
  t.throws(
    () =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got[0]?.body ?? '', {
        'webhook-id': got[0]?.id ?? '',
        'webhook-timestamp': got[0]?.timestamp ?? '',
        'webhook-signature': got[0]?.signature ?? '',
      }),
    'another secret does not verify it',
  );

  const page = await w.club.client.get(`/dashboard/connect/webhooks/${endpoint.endpointId}`);
  t.notMatch(page.body, /whsec_/, 'the secret is never shown again');
  t.match(page.body, /data-state="delivered"/);
});

t.test('only the events an endpoint chose are sent to it', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.final']);
  w.receiver.state.secrets = [endpoint.secret];
  await w.club.upload('wh-only-final', { version: 1 });
  await w.club.upload('wh-only-final', { version: 2, status: 'final' });
  await w.club.upload('wh-only-final', { version: 3, status: 'final' });
  const [only] = await eventually('the final webhook', () => w.receiver.received.length >= 1 && w.receiver.received);
  t.equal(bodyOf(only?.body ?? '{}').type, 'match.final');
  const page = await eventually('the later change queued and skipped', async () => {
    const body = (await w.club.client.get(`/dashboard/connect/webhooks/${endpoint.endpointId}`)).body;
    return body.includes('data-state="delivered"') && body;
  });
  t.equal((page.match(/data-webhook-id=/g) ?? []).length, 1, 'the synced and changed uploads queued nothing for it');
});

t.test('a failing endpoint is tried again on the Standard Webhooks schedule (shrunk 1000×), with growing waits', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced']);
  w.receiver.state.secrets = [endpoint.secret];
  w.receiver.state.answer = ({ count }) => (count < 3 ? 500 : 204);
  await w.club.upload('wh-retried', { version: 1 });
  const attempts = await eventually('a fourth attempt', () => w.receiver.received.length >= 4 && w.receiver.received);
  t.same(
    attempts.map((r) => r.status),
    [500, 500, 500, 204],
  );
  t.equal(new Set(attempts.map((r) => r.id)).size, 1, 'every attempt carries the same webhook-id');
  const gaps = attempts.slice(1).map((r, i) => r.at - (attempts[i]?.at ?? 0));
  // 5 s, 5 min, 30 min × 0.001 = 5, 300, 1800 ms, each ±20 %.
  t.ok((gaps[1] ?? 0) >= 240 && (gaps[1] ?? 0) < 1000, `the second wait is about 300 ms (${gaps[1]} ms)`);
  t.ok((gaps[2] ?? 0) >= 1440 && (gaps[2] ?? 0) < 3000, `the third is about 1800 ms (${gaps[2]} ms)`);
  const page = await eventually('the delivery log', async () => {
    const body = (await w.club.client.get(`/dashboard/connect/webhooks/${endpoint.endpointId}`)).body;
    return body.includes('data-state="delivered"') && body;
  });
  t.match(page, /<td class="num">4<\/td>/, 'four tries in the delivery log');
});

t.test('an endpoint answering 410 Gone is disabled: nothing more is sent until the admin enables it again', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced', 'match.changed']);
  w.receiver.state.secrets = [endpoint.secret];
  w.receiver.state.answer = () => 410;
  await w.club.upload('wh-gone', { version: 1 });
  await eventually('the 410', () => w.receiver.received.length === 1);
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  let page = await eventually('disabled', async () => {
    const body = (await w.club.client.get(path)).body;
    return body.includes('answered 410 Gone') && body;
  });
  t.match(page, /disabled/);
  await w.club.upload('wh-gone', { version: 2 });
  w.receiver.state.answer = () => 200;
  await w.club.client.get(path);
  const res = await w.club.client.post(`${path}/enable`, {});
  t.equal(res.statusCode, 303);
  await w.club.upload('wh-gone', { version: 3 });
  const sent = await eventually('the change after enabling sent', () => w.receiver.received.length === 2 && w.receiver.received);
  const versions = await w.engine.eventStore.readStream('match-wh-gone');
  const syncIds = versions.filter((e) => e.type.startsWith('ClubSync')).map((e) => e.id);
  t.equal(sent[1]?.id, syncIds[2], "the third version's: the one while disabled was never queued");
  t.ok(sent[1]?.verified);
  page = (await w.club.client.get(path)).body;
  t.equal((page.match(/data-webhook-id=/g) ?? []).length, 2);
});

t.test('rotation: the new secret is shown once, and both secrets sign each webhook during the overlap', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced', 'match.changed']);
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  await w.club.client.get(path);
  const rotated = await w.club.client.post(`${path}/rotate`, {});
  t.equal(rotated.statusCode, 200);
  const secret = /value="(whsec_[^"]+)"/.exec(rotated.body)?.[1] ?? '';
  t.match(secret, /^whsec_/);
  t.not(secret, endpoint.secret);
  t.match(rotated.body, /the previous one until/);
  await w.club.upload('wh-rotated', { version: 1 });
  const [one] = await eventually('a webhook', () => w.receiver.received.length >= 1 && w.receiver.received);
  t.equal(one?.signature.split(' ').length, 2, 'two signatures');
  for (const [label, key] of [
    ['old', endpoint.secret],
    ['new', secret],
  ] as const) {
    t.doesNotThrow(
      () =>
        new Webhook(key).verify(one?.body ?? '', {
          'webhook-id': one?.id ?? '',
          'webhook-timestamp': one?.timestamp ?? '',
          'webhook-signature': one?.signature ?? '',
        }),
      `the ${label} secret verifies it`,
    );
  }
  t.notMatch((await w.club.client.get(path)).body, /whsec_/, 'neither secret is shown again');
});

t.test('once the overlap is over, only the new secret signs', async (t) => {
  const w = await world(t, { WEBHOOK_SECRET_OVERLAP_MS: '0' });
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced']);
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  await w.club.client.get(path);
  const secret = /value="(whsec_[^"]+)"/.exec((await w.club.client.post(`${path}/rotate`, {})).body)?.[1] ?? '';
  w.receiver.state.secrets = [secret];
  await w.club.upload('wh-rotated-over', { version: 1 });
  const [one] = await eventually('a webhook', () => w.receiver.received.length >= 1 && w.receiver.received);
  t.equal(one?.signature.split(' ').length, 1);
  t.ok(one?.verified);
});

t.test('redeliver sends a delivered webhook again, with the same webhook-id', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced']);
  w.receiver.state.secrets = [endpoint.secret];
  await w.club.upload('wh-again', { version: 1 });
  const [first] = await eventually('a webhook', () => w.receiver.received.length >= 1 && w.receiver.received);
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  await eventually('delivered', async () => (await w.club.client.get(path)).body.includes('data-state="delivered"'));
  const res = await w.club.client.post(`${path}/deliveries/${first?.id}/redeliver`, {});
  t.equal(res.statusCode, 303);
  const again = await eventually('sent again', () => w.receiver.received.length >= 2 && w.receiver.received);
  t.equal(again[1]?.id, first?.id);
  t.equal(again[1]?.body, first?.body, 'the same body');
  t.ok(again[1]?.verified);
});

t.test("another club's admin, and forms without CSRF, are refused and change nothing", async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced']);
  const other = await clubWithAppKey(w.base, 'admin@hillcrest.test');
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  t.equal((await other.client.get(path)).statusCode, 404, "another club's admin does not see it");
  await other.client.get('/dashboard/connect/webhooks');
  t.equal((await other.client.post(`${path}/delete`, {})).statusCode, 404, 'nor removes it');
  await w.club.client.get(path);
  const res = await w.club.client.post(`${path}/delete`, {}, { csrf: null });
  t.equal(res.statusCode, 403);
  t.equal((await w.club.client.get('/dashboard/connect/webhooks/ep_nosuchendpoint')).statusCode, 404);
  t.equal((await w.club.client.get(path)).statusCode, 200, 'still there');
});

t.test("a match erased from the dashboard takes its webhooks' bodies along: pending ones fail, none can be redelivered", async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url, ['match.synced']);
  w.receiver.state.answer = () => 503;
  await w.club.upload('wh-erased', { version: 1 });
  await eventually('tried once', () => w.receiver.received.length >= 1);
  await w.club.client.get('/dashboard/matches/wh-erased/erase');
  const erased = await w.club.client.post('/dashboard/matches/wh-erased/erase', { reason: 'a parent asked', confirm: 'yes' });
  t.equal(erased.statusCode, 303);
  const path = `/dashboard/connect/webhooks/${endpoint.endpointId}`;
  const page = await eventually('the delivery failed, its body forgotten', async () => {
    const body = (await w.club.client.get(path)).body;
    return body.includes('data-state="failed"') && body;
  });
  const id = /data-webhook-id="([^"]+)"/.exec(page)?.[1] ?? '';
  t.equal((await w.club.client.post(`${path}/deliveries/${id}/redeliver`, {})).statusCode, 404, 'nothing left to redeliver');
  w.receiver.state.answer = () => 200;
  const tried = w.receiver.received.length;
  await w.club.upload('wh-other', { version: 1 });
  await eventually('the next match delivered', () => w.receiver.acknowledged().size === 1);
  t.notOk(
    w.receiver.received.slice(tried).some((r) => r.body.includes('wh-erased')),
    'the erased match is never sent again',
  );
});
