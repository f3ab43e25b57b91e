import type { MatchCommands } from '../commands/matchCommands.js';
import { type EventStore, WrongExpectedRevisionError } from '../eventstore/eventStore.js';
import type { BatchObserver } from '../../projections/runner.js';
import type { Metrics } from './metrics.js';
import { projectionBatchMetrics } from './projectionMetrics.js';
import type { Tracing } from './tracing.js';

/** What watches this process: each part is null when off (no METRICS_PORT, no OTLP endpoint), and then costs nothing. */
export interface Observability {
  metrics: Metrics | null;
  tracing: Tracing | null;
}

export const unobserved: Observability = { metrics: null, tracing: null };

/** Append latency, lost races (409_retry) and an append span; the store itself when nothing watches. */
export function observeEventStore(store: EventStore, { metrics, tracing }: Observability): EventStore {
  if (metrics === null && tracing === null) return store;
  const timed: EventStore['appendToStream'] = async (streamId, events, expectedRevision) => {
    const started = performance.now();
    try {
      const result = await store.appendToStream(streamId, events, expectedRevision);
      metrics?.appendSeconds.observe((performance.now() - started) / 1000);
      return result;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) metrics?.writes.inc({ outcome: '409_retry' });
      throw error;
    }
  };
  const appendToStream: EventStore['appendToStream'] =
    tracing === null
      ? timed
      : (streamId, events, expectedRevision) =>
          tracing.inSpan('matchlog.append', { 'matchlog.stream': streamId, 'matchlog.events': events.length }, async (span) => {
            const result = await timed(streamId, events, expectedRevision);
            span.setAttribute('matchlog.position', result.position);
            tracing.appended(result.position, span);
            return result;
          });
  return {
    positionUnit: store.positionUnit,
    appendToStream,
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    subscribeToAll: (options) => store.subscribeToAll(options),
    erasePayloads: (streamId, revisions) => store.erasePayloads(streamId, revisions),
    close: () => store.close(),
  };
}

/** Uploads by outcome (created, replaced, unchanged) and club sync outcomes; a span around decide and append. */
export function observeUploads(matches: MatchCommands, { metrics, tracing }: Observability): MatchCommands {
  if (metrics === null && tracing === null) return matches;
  const counted: MatchCommands['upload'] = async (input) => {
    const result = await matches.upload(input);
    metrics?.writes.inc({ outcome: result.created ? 'created' : result.stored ? 'replaced' : 'unchanged' });
    if (result.stored && result.clubSync !== null) metrics?.clubSyncs.inc({ outcome: result.clubSync.type });
    return result;
  };
  if (tracing === null) return { ...matches, upload: counted };
  return {
    ...matches,
    upload: (input) =>
      tracing.inSpan('matchlog.upload', { 'matchlog.match_id': input.matchId, 'matchlog.via': input.via }, async (span) => {
        const result = await counted(input);
        span.setAttributes({ 'matchlog.revision': result.revision, 'matchlog.position': result.position, 'matchlog.stored': result.stored });
        return result;
      }),
  };
}

/** The projection runner's observer: batch metrics, and one span per batch linked to the appends it applies. */
export function observeBatches({ metrics, tracing }: Observability): BatchObserver | undefined {
  const counted = metrics === null ? null : projectionBatchMetrics(metrics);
  if (tracing === null) return counted ?? undefined;
  return {
    batch(projections, events, run) {
      const positions = events.map((event) => event.position);
      const attributes = {
        'matchlog.projections': [...projections],
        'matchlog.events': events.length,
        'matchlog.position.first': positions[0] ?? 0,
        'matchlog.position.last': positions.at(-1) ?? 0,
      };
      return tracing.inSpan('matchlog.projection_batch', attributes, () => (counted ? counted.batch(projections, events, run) : run()), {
        root: true,
        links: tracing.linksTo(positions),
      });
    },
    failed(projection) {
      counted?.failed(projection);
    },
  };
}
