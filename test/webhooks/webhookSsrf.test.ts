import t from 'tap';
import { startTestApp } from '../helpers/testApp.js';
import { clubWithAppKey } from '../helpers/webhookClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

/** The operator's default: no WEBHOOK_ALLOW_PRIVATE. */
async function world(t: Parameters<typeof startTestApp>[0]) {
  const s = await startTestApp(t, { WEBHOOK_RETRY_SCALE: '0.001' });
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...s, club: await clubWithAppKey(base), receiver: await startWebhookReceiver(t) };
}

t.test('by default the dashboard refuses endpoints at loopback and private addresses, saying why, and adds nothing', async (t) => {
  const w = await world(t);
  const port = new URL(w.receiver.url).port;
  for (const [url, kind] of [
    [`http://127.0.0.1:${port}/hooks`, '127.0.0.1 is a loopback address'],
    ['http://10.1.2.3/hooks', '10.1.2.3 is a private address'],
    [`http://[::1]:${port}/hooks`, '::1 is a loopback address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
  ] as const) {
    const res = await w.club.addEndpoint(url, ['match.synced']);
    t.equal(res.status, 400, url);
    t.match(res.body, `${kind}: webhooks go only to public addresses unless the operator allows this one (WEBHOOK_ALLOW_PRIVATE)`);
    t.match(res.body, `value="${url}"`, 'the form keeps what was typed');
  }
  const page = await w.club.client.get('/dashboard/connect/webhooks');
  t.match(page.body, /No endpoint yet/);
});

t.test('a name that resolves to loopback is refused at connect time: nothing reaches the address, the delivery log says why', async (t) => {
  const w = await world(t);
  const endpoint = await w.club.addEndpoint(w.receiver.url.replace('127.0.0.1', 'localhost'), ['match.synced']);
  t.equal(endpoint.status, 200, 'a name is accepted: what it resolves to is checked when connecting');
  await w.club.upload('ssrf-1');
  const page = await eventually('the refusal in the delivery log', async () => {
    const body = (await w.club.client.get(`/dashboard/connect/webhooks/${endpoint.endpointId}`)).body;
    return body.includes('refused: localhost') && body;
  });
  t.match(page, /refused: localhost: (127\.0\.0\.1|::1) is a loopback address/);
  t.equal(w.receiver.received.length, 0, 'no request reached the receiver');
});

t.test('a bad WEBHOOK_ALLOW_PRIVATE stops the start with a line naming it', async (t) => {
  await t.rejects(startTestApp(t, { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1,intranet.local' }), {
    message: /WEBHOOK_ALLOW_PRIVATE must be addresses or CIDR ranges separated by commas .*"intranet.local" is not one/,
  });
});
