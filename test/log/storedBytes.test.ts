import { createHash } from 'node:crypto';
import t from 'tap';
import { startTestApp } from '../helpers/testApp.js';

// Issue 59, F6: what is stored, digested and served of a body, stated exactly (docs/auditing.md, The stored bytes).

t.test('the stored bytes are the body without a leading BOM and surrounding white space, digested and served byte for byte', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const inner = '{"id":"bytes-1","note":"caf\u00e9 \u00a0 spaced"}';
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(` \t\r\n${inner}\n\t `)]);
  const created = await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(created.status, 201);
  const { receipt } = (await created.json()) as { receipt: { entry: string } };
  const served = await fetch(`${base}/api/matches/bytes-1/payload?revision=0`);
  const bytes = Buffer.from(await served.arrayBuffer());
  t.same(bytes, Buffer.from(inner), 'served: the inner bytes, white space inside kept');
  const salt = Buffer.from(served.headers.get('matchlog-payload-salt') ?? '', 'base64');
  const digest = createHash('sha256').update(salt).update(bytes).digest('hex');
  t.match(receipt.entry, `"payloadSha256":"${digest}"`, 'and digested into the entry');
  const plain = Buffer.from('{"id":"bytes-2","a":1}');
  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: plain })).status, 201);
  t.same(Buffer.from(await (await fetch(`${base}/api/matches/bytes-2/payload?revision=0`)).arrayBuffer()), plain, 'a body without either comes back as sent');
});
