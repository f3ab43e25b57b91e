import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createServer } from 'node:http';
import t from 'tap';
import { startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';
import { startTracing } from '../../src/observability/tracing.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

t.test('without an OTLP endpoint there is no tracing: no exporter, no instrumentation', async (t) => {
  t.equal(await startTracing({}, { serviceName: 'matchlog-test' }), null);
  t.equal(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, { serviceName: 'matchlog-test' }), null);
  const { app } = await startTestApp(t);
  t.notOk(app.hasRequestDecorator('opentelemetry'), '@fastify/otel is not registered');
});

t.test('one upload gives a request span, its decide-and-append span and the append, and the projection batch links to it', async (t) => {
  const exporter = new InMemorySpanExporter();
  const tracing = await startTracing({}, { serviceName: 'matchlog-test', exporter });
  if (tracing === null) throw new Error('an exporter turns tracing on');
  t.teardown(() => tracing.shutdown());
  const { app } = await startTestApp(t, {}, { observability: { metrics: null, tracing } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  const res = await fetch(`http://127.0.0.1:${port}/api/matches`, { method: 'POST', headers: json, body: fixtureText({ seed: 5, id: 'traced-1' }) });
  t.equal(res.status, 201);
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  const append = () => spans().find((span) => span.name === 'matchlog.append' && span.attributes['matchlog.stream'] === 'match-traced-1');
  const position = () => Number(append()?.attributes['matchlog.position']);
  const batch = () => spans().find((span) => span.name === 'matchlog.projection_batch' && Number(span.attributes['matchlog.position.last']) >= position());
  for (let i = 0; i < 100 && batch() === undefined; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));

  const request = spans().find((span) => span.name === 'POST /api/matches' && span.attributes['http.route'] === '/api/matches');
  const upload = spans().find((span) => span.name === 'matchlog.upload' && span.attributes['matchlog.match_id'] === 'traced-1');
  t.ok(request, 'a span for the request');
  t.ok(upload, 'a span for the decision and append');
  t.ok(append(), 'a span for the append');
  t.ok(batch(), 'a span for the projection batch that applied it');
  if (!request || !upload || !append() || !batch()) return;
  const traceId = request.spanContext().traceId;
  t.equal(upload.spanContext().traceId, traceId, "the upload is in the request's trace");
  t.equal(append()!.parentSpanContext?.spanId, upload.spanContext().spanId, 'the append is a child of the upload');
  const ancestors = new Set<string>();
  for (let span: ReadableSpan | undefined = upload; span; span = spans().find((s) => s.spanContext().spanId === span?.parentSpanContext?.spanId))
    ancestors.add(span.spanContext().spanId);
  t.ok(ancestors.has(request.spanContext().spanId), 'the upload descends from the request span');
  t.ok(Number(batch()!.attributes['matchlog.position.first']) <= position(), 'the batch names the positions it applied');
  t.ok(
    batch()!.links.some((link) => link.context.spanId === append()!.spanContext().spanId),
    'the batch links to the append it projected',
  );

  const put = await fetch(`http://127.0.0.1:${port}/api/matches/traced-1`, { method: 'PUT', headers: json, body: fixtureText({ seed: 6, id: 'traced-1' }) });
  t.equal(put.status, 200);
  const named = (name: string) => spans().find((span) => span.name === name);
  for (let i = 0; i < 100 && named('PUT /api/matches/:id handler') === undefined; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(named('PUT /api/matches/:id'), 'the PUT request span is named by method and route');
  t.equal(
    named('PUT /api/matches/:id handler')?.parentSpanContext?.spanId,
    named('PUT /api/matches/:id')?.spanContext().spanId,
    "its handler's span too, under it",
  );
  t.same(
    spans()
      .map((span) => span.name)
      .filter((name) => name.includes('->') || name.includes('traced-1')),
    [],
    'no span is named after a plugin chain or a URL',
  );
});

t.test('with OTEL_EXPORTER_OTLP_ENDPOINT set, the server sends its spans there over OTLP', async (t) => {
  const received: { path: string; type: string; bytes: number }[] = [];
  const collector = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', bytes });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.teardown(() => collector.close());
  const address = collector.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const server = await startServerProcess({ DATA_DIR: tempDataDir(t), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' });
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  t.equal((await fetch(`${server.url}/api/matches`, { method: 'POST', headers: json, body: fixtureText({ seed: 6, id: 'exported-1' }) })).status, 201);
  for (let i = 0; i < 100 && received.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(received.length > 0, 'spans arrived');
  t.equal(received[0]?.path, '/v1/traces');
  t.equal(received[0]?.type, 'application/x-protobuf');
});
