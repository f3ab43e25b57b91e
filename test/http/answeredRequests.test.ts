import Fastify, { type FastifyRequest } from 'fastify';
import t from 'tap';
import { registerJsonBody } from '../../src/http/api/jsonBody.js';

t.test('an answered request lets go of its parsed body and its text', async (t) => {
  const app = Fastify();
  registerJsonBody(app, 1024 * 1024, { maxDepth: 64, maxValues: 100_000 });
  let answered: FastifyRequest | null = null;
  const seen: { body: unknown; text: string | undefined }[] = [];
  app.post('/echo', async (request) => {
    answered = request;
    seen.push({ body: request.body, text: request.rawJson?.text });
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };

  const body = JSON.stringify({ id: 'm-1', actions: Array.from({ length: 200 }, (_, i) => ({ seq: i, team: 'home' })) });
  const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(res.status, 200);
  t.same(await res.json(), { ok: true });
  t.same(seen[0]?.body, JSON.parse(body), 'the handler had the parsed body');
  t.equal(seen[0]?.text, body, 'and its text');

  // onResponse runs once the answer is written: wait until it has.
  for (let i = 0; i < 100 && (answered as FastifyRequest | null)?.rawJson !== null; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  const request = answered as FastifyRequest | null;
  t.ok(request, 'the request was seen');
  t.equal(request?.body, undefined, 'once answered, the request no longer holds the parsed body');
  t.equal(request?.rawJson, null, 'nor its text');
});
