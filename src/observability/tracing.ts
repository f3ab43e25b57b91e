import type { Attributes, Link, Span, SpanContext } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Span contexts of this process's recent appends, by log position: projection batches link to them. */
const REMEMBERED_APPENDS = 4096;

export interface Tracing {
  /** One span per request (and its handler), through @fastify/otel; register before any route. */
  register(app: FastifyInstance): Promise<void>;
  /** Runs `work` in a child span of the active one (or a new trace with `root`), ended when it settles. */
  inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, options?: { root?: boolean; links?: Link[] }): Promise<T>;
  /** Remembers which span appended the events ending at `position`, for links from the batches that project them. */
  appended(position: number, span: Span): void;
  /** Links to the spans that appended the events at these positions, where this process remembers them. */
  linksTo(positions: readonly number[]): Link[];
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  serviceName: string;
  /** Tests pass an in-memory exporter; otherwise the OTLP exporter reads OTEL_EXPORTER_OTLP_* itself. */
  exporter?: SpanExporter;
}

/** A request's span name, as OpenTelemetry's HTTP conventions want it: method and route pattern, never the URL (ids). */
const routeSpanName = (request: Pick<FastifyRequest, 'method' | 'routeOptions'>) => `${request.method} ${request.routeOptions.url ?? 'unmatched'}`;

/** Tracing is on only when the standard OTLP endpoint variables say where to send spans. */
const tracingWanted = (env: Record<string, string | undefined>) => Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/**
 * OpenTelemetry, opt-in: null (and no OpenTelemetry module loaded, no exporter made) unless
 * OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set or an exporter is given.
 * Spans: the request (@fastify/otel; `PUT /api/matches/:id` and its `… handler`), `matchlog.upload` (decide and append),
 * `matchlog.append`, and `matchlog.projection_batch` with the positions it applied.
 */
export async function startTracing(env: Record<string, string | undefined>, options: TracingOptions): Promise<Tracing | null> {
  if (!options.exporter && !tracingWanted(env)) return null;
  const [api, { NodeTracerProvider }, { BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }, { default: fastifyOtel }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@fastify/otel'),
  ]);
  const exporter = options.exporter ?? new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || options.serviceName }),
    // Exported in batches off the request path; a test's in-memory exporter gets each span as it ends.
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  // The AsyncLocalStorage context manager: spans started in a handler become children of its request's.
  provider.register();
  const tracer = provider.getTracer('matchlog');
  const instrumentation = new fastifyOtel.FastifyOtelInstrumentation({
    // The request and handler spans, not one per hook (some ten per request here).
    instrumentHooks: false,
    ignorePaths: ({ url }) => url === '/healthz' || url === '/readyz',
    // Spans named by method and route ("PUT /api/matches/:id"), not "request" and a plugin chain.
    requestHook: (span, request) => span.updateName(routeSpanName(request)),
    lifecycleHook: (span, { hookName, request }) => span.updateName(`${routeSpanName(request)} ${hookName}`),
  });
  instrumentation.setTracerProvider(provider);
  const appends = new Map<number, SpanContext>();

  return {
    async register(app) {
      await app.register(instrumentation.plugin());
    },
    inSpan(name, attributes, work, { root = false, links = [] } = {}) {
      return tracer.startActiveSpan(name, { attributes, root, links }, async (span) => {
        try {
          return await work(span);
        } catch (error) {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    appended(position, span) {
      appends.set(position, span.spanContext());
      if (appends.size > REMEMBERED_APPENDS) appends.delete(appends.keys().next().value ?? position);
    },
    linksTo(positions) {
      return positions.flatMap((position) => {
        const context = appends.get(position);
        return context ? [{ context }] : [];
      });
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
