import { lstat, readdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Latencies from 0.5 ms to 10 s: appends and fsyncs sit at the low end, slow uploads at the top. */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const COUNTS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** The outcomes of an upload counted from the start (others, such as a rare 4xx, appear at their first). */
export const WRITE_OUTCOMES = ['created', 'replaced', 'unchanged', '409_retry', '400', '403', '413', '415', '429', '503', '507'] as const;

/**
 * Every metric of one process (API or projection worker), in a registry of its own: nothing
 * global, so tests and processes never share counts. Names and meanings are listed in
 * docs/operations.md; docs/operations/alerts.yml and the dashboard use only these.
 */
export function createMetrics() {
  const registry = new Registry();
  // Event-loop delay (nodejs_eventloop_lag_*), heap (nodejs_heap_*), CPU, file descriptors, GC.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const writes = new Counter({
    name: 'matchlog_writes_total',
    help:
      'Match uploads by outcome: created, replaced, unchanged, or the refusal status (403, 413, 429, 503, 507, ...); ' +
      '409_retry counts attempts that lost a race and were decided again',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Every known outcome exists from the start at 0: a rule on increase() sees the first 507, not only the second.
  for (const outcome of WRITE_OUTCOMES) writes.inc({ outcome }, 0);
  return {
    registry,
    httpRequestSeconds: new Histogram({
      name: 'matchlog_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, and how long each took (its _count is the request count)',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    writes,
    clubSyncs: new Counter({
      name: 'matchlog_club_syncs_total',
      help: 'Club sync outcomes stored with uploads, by event type',
      labelNames: ['outcome'] as const,
      registers,
    }),
    appendSeconds: new Histogram({
      name: 'matchlog_eventstore_append_seconds',
      help: 'From an append asked to it being durable (fsync or quorum)',
      buckets: SECONDS,
      registers,
    }),
    fsyncSeconds: new Histogram({
      name: 'matchlog_eventstore_fsync_seconds',
      help: 'SQLite log: the COMMIT of one group (WAL write and fsync)',
      buckets: SECONDS,
      registers,
    }),
    groupCommitAppends: new Histogram({
      name: 'matchlog_eventstore_group_commit_appends',
      help: 'SQLite log: appends committed together under one fsync',
      buckets: COUNTS,
      registers,
    }),
    projectionBatchEvents: new Histogram({
      name: 'matchlog_projection_batch_events',
      help: 'Events applied per committed projection batch',
      labelNames: ['projection'] as const,
      buckets: [1, 2, 5, 10, 20, 50, 100, 200],
      registers,
    }),
    projectionBatchSeconds: new Histogram({
      name: 'matchlog_projection_batch_seconds',
      help: 'Time to apply and commit one projection batch',
      labelNames: ['projection'] as const,
      buckets: SECONDS,
      registers,
    }),
    projectionFailures: new Counter({
      name: 'matchlog_projection_failures_total',
      help: 'Projection batches that failed (each is retried, never skipped)',
      labelNames: ['projection'] as const,
      registers,
    }),
    liveStreamsOpen: new Gauge({ name: 'matchlog_live_streams_open', help: 'Live update streams (GET /match/:id/live) open now', registers }),
    liveEventsSent: new Counter({ name: 'matchlog_live_events_sent_total', help: 'Revision events pushed to open live streams', registers }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Gauges read when Prometheus scrapes: `read` gives label values and numbers (a failed read leaves them out). */
export function scrapedGauge<Label extends string>(
  metrics: Metrics,
  name: string,
  help: string,
  labelNames: readonly Label[],
  read: () => Promise<[Partial<Record<Label, string>>, number][]>,
) {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const [labels, value] of await read().catch(() => [])) this.set(labels, value);
    },
  });
}

/** Files of DATA_DIR counted at a scrape, at most: a folder someone filled with other things is not walked to its end. */
const DATA_DIR_FILES_COUNTED = 10_000;

/** Bytes the files under `dir` take on disk (allocated blocks, as du counts), over at most DATA_DIR_FILES_COUNTED entries. */
async function bytesUnder(dir: string): Promise<number> {
  let bytes = 0;
  let seen = 0;
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined && seen < DATA_DIR_FILES_COUNTED; folder = folders.pop()) {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      seen += 1;
      if (seen > DATA_DIR_FILES_COUNTED) break;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile())
        bytes += await lstat(path).then(
          (stats) => stats.blocks * 512,
          () => 0,
        );
    }
  }
  return bytes;
}

/**
 * DATA_DIR on disk: free and total bytes of the file system holding it ("disk almost full"), and
 * the bytes its own files take (the log, read models, keys: how fast matchlog fills the disk).
 */
export function watchDataDir(metrics: Metrics, dataDir: string) {
  const read = (field: 'free' | 'total') => async (): Promise<[Record<string, string>, number][]> => {
    const stats = await statfs(dataDir);
    return [[{}, (field === 'free' ? stats.bavail : stats.blocks) * stats.bsize]];
  };
  scrapedGauge(metrics, 'matchlog_data_dir_available_bytes', 'Bytes available to matchlog on the file system of DATA_DIR', [], read('free'));
  scrapedGauge(metrics, 'matchlog_data_dir_filesystem_size_bytes', 'Size of the file system holding DATA_DIR (not of DATA_DIR)', [], read('total'));
  scrapedGauge(metrics, 'matchlog_data_dir_bytes', "Bytes DATA_DIR's own files take on disk (allocated blocks, as du counts)", [], async () => [
    [{}, await bytesUnder(dataDir)],
  ]);
}
