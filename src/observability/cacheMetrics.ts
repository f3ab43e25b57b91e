import { Counter } from 'prom-client';
import type { RenderedCache } from '../http/renderedPages.js';
import { type Metrics, scrapedGauge } from './metrics.js';

/** The rendered-body cache (PAGE_CACHE_BYTES), read at scrape time: bytes and bodies kept, lookups by result. */
export function watchCache(metrics: Metrics, cache: RenderedCache) {
  scrapedGauge(metrics, 'matchlog_page_cache_bytes', 'Bytes kept in the rendered-body cache, compressed copies included (budget PAGE_CACHE_BYTES)', [], async () => [[{}, cache.bytes()]]);
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
