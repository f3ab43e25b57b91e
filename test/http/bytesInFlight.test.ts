import { Readable } from 'node:stream';
import Fastify from 'fastify';
import t from 'tap';
import { registerBytesInFlight } from '../../src/http/bytesInFlight.js';

// The budget's refusals are tested over the whole app in connectionLimits.test.ts (issue 33, item 3).

t.test('uploads are counted by one push shared by every request stream, none made per upload', async (t) => {
  const app = Fastify();
  const flight = registerBytesInFlight(app, { maxBytesInFlight: 10_000_000, maxBodyBytes: 1_000_000 });
  const seen: { push: unknown; counted: number }[] = [];
  app.post('/upload', async (request) => {
    seen.push({ push: request.raw.push, counted: flight.bytesInFlight() });
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };

  const bodies = [JSON.stringify({ id: 'a', pad: 'x'.repeat(200_000) }), JSON.stringify({ id: 'b', pad: 'é'.repeat(50_000) })];
  for (const body of bodies) {
    const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    t.equal(res.status, 200);
  }
  t.same(
    seen.map((s) => s.counted),
    bodies.map((body) => Buffer.byteLength(body)),
    "each upload's bytes are counted as its body arrives, in bytes",
  );
  t.equal(seen[0]?.push, seen[1]?.push, 'both streams push through the same function');
  t.not(seen[0]?.push, Readable.prototype.push, "a counting push, not the stream's own");
  for (let i = 0; i < 100 && flight.bytesInFlight() !== 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(flight.bytesInFlight(), 0, 'answered uploads hold no bytes');
});
