import { Counter } from 'prom-client';
import { type Metrics, scrapedGauge } from './metrics.js';

/** What the metrics read of the rendered-body cache (src/http/renderedPages.ts). */
interface WatchedCache {
  bytes(): number;
  entries(): number;
  lookups(): { hits: number; misses: number };
}

/** The rendered-body cache (PAGE_CACHE_BYTES), read at scrape time: bytes and bodies kept, lookups by result. */
export function watchCache(metrics: Metrics, cache: WatchedCache) {
  scrapedGauge(
    metrics,
    'matchlog_page_cache_bytes',
    'Bytes kept in the rendered-body cache, compressed copies included (budget PAGE_CACHE_BYTES)',
    [],
    async () => [[{}, cache.bytes()]],
  );
  scrapedGauge(metrics, 'matchlog_page_cache_entries', 'Bodies kept in the rendered-body cache', [], async () => [[{}, cache.entries()]]);
  new Counter({
    name: 'matchlog_page_cache_requests_total',
    help: 'Lookups in the rendered-body cache by result (hit, miss): the hit rate is hit / (hit + miss)',
    labelNames: ['result'] as const,
    registers: [metrics.registry],
    collect() {
      const { hits, misses } = cache.lookups();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
}

/** 1 while /readyz answers 200, else 0 ("readiness lost" alert); asked at scrape time. */
export function watchReadiness(metrics: Metrics, isReady: () => Promise<boolean>) {
  scrapedGauge(metrics, 'matchlog_ready', '1 while /readyz says ready, 0 otherwise', [], async () => [[{}, (await isReady()) ? 1 : 0]]);
}
