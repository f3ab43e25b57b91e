import type { EventStore, RecordedEvent } from '../eventstore/eventStore.js';
import type { BatchObserver, ProjectionStatus } from '../../projections/runner.js';
import { type Metrics, scrapedGauge } from './metrics.js';

export interface ProjectionSource {
  eventStore: Pick<EventStore, 'readAll' | 'positionUnit'>;
  projectionStatus(): Promise<(ProjectionStatus & { lag: number })[]>;
}

/**
 * Per projection, read at scrape time: its checkpoint, its lag in the log's position unit
 * (`_events` on SQLite, `_bytes` on EventStoreDB), its lag in seconds (the age of the oldest event it
 * has not applied) and whether it is failing now.
 */
export function watchProjections(metrics: Metrics, source: ProjectionSource, now = Date.now) {
  const unit = source.eventStore.positionUnit;
  scrapedGauge(metrics, 'matchlog_projection_checkpoint', 'Position of the last event the projection has applied', ['projection'], async () =>
    (await source.projectionStatus()).map((p) => [{ projection: p.name }, p.checkpoint ?? 0]),
  );
  // One metric per unit, never a unit in a label: events on SQLite, bytes of log on EventStoreDB.
  scrapedGauge(
    metrics,
    unit === 'event' ? 'matchlog_projection_lag_events' : 'matchlog_projection_lag_bytes',
    unit === 'event' ? 'Events the projection has not applied yet' : 'Bytes of log (EventStoreDB positions) the projection has not applied yet',
    ['projection'],
    async () => (await source.projectionStatus()).map((p) => [{ projection: p.name }, p.lag]),
  );
  scrapedGauge(
    metrics,
    'matchlog_projection_lag_seconds',
    'Age of the oldest event the projection has not applied (0 when caught up)',
    ['projection'],
    async () => {
      const oldest = new Map<number | null, RecordedEvent | undefined>();
      const rows: [{ projection: string }, number][] = [];
      for (const p of await source.projectionStatus()) {
        if (p.lag <= 0) {
          rows.push([{ projection: p.name }, 0]);
          continue;
        }
        if (!oldest.has(p.checkpoint)) oldest.set(p.checkpoint, (await source.eventStore.readAll({ after: p.checkpoint, maxCount: 1 }))[0]);
        const event = oldest.get(p.checkpoint);
        rows.push([{ projection: p.name }, event ? Math.max(0, (now() - Date.parse(event.recordedAt)) / 1000) : 0]);
      }
      return rows;
    },
  );
  scrapedGauge(metrics, 'matchlog_projection_failing', '1 while the projection fails on an event and retries it', ['projection'], async () =>
    (await source.projectionStatus()).map((p) => [{ projection: p.name }, p.failure === null ? 0 : 1]),
  );
}

/** The runner's batch hook: batch sizes and durations per projection, failures counted. */
export function projectionBatchMetrics(metrics: Metrics): BatchObserver {
  return {
    async batch(projections, events, run) {
      const started = performance.now();
      const result = await run();
      const seconds = (performance.now() - started) / 1000;
      for (const projection of projections) {
        metrics.projectionBatchEvents.observe({ projection }, events.length);
        metrics.projectionBatchSeconds.observe({ projection }, seconds);
      }
      return result;
    },
    failed(projection) {
      metrics.projectionFailures.inc({ projection });
    },
  };
}
