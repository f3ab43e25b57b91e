import { Gauge } from 'prom-client';
import { readTreeHead } from '../history/logProofs.js';
import { matchlogVersion } from '../platform/packageVersion.js';
import type { ReadModelReader } from '../readmodel/readModel.js';
import { type Metrics, scrapedGauge } from './metrics.js';

/** What runs: matchlog's version, Node's, and the engines behind the log and the read models. */
interface BuildFacts {
  version: string;
  /** The event store's engine: sqlite or eventstoredb. */
  engine: string;
  /** The read models' engine: sqlite or mongodb. */
  readModel: string;
}

/** The engine a store URL names (its scheme, without the variants' suffixes). */
const engineOf = (url: string) => (url.startsWith('esdb') ? 'eventstoredb' : url.startsWith('mongodb') ? 'mongodb' : (url.split(':')[0] ?? 'unknown'));

/** What runs, from the store URLs of the configuration and the package.json of this install. */
export const buildFacts = ({ eventStoreUrl, readModelUrl }: { eventStoreUrl: string; readModelUrl: string }): BuildFacts => ({
  version: matchlogVersion(),
  engine: engineOf(eventStoreUrl),
  readModel: engineOf(readModelUrl),
});

/**
 * `matchlog_build_info{version,node,engine,read_model}` = 1, the Prometheus idiom for what runs
 * (join on it to compare before and after an upgrade), and the transparency log's size in
 * entries as its projection last committed it (`matchlog_log_entries`).
 */
export function watchService(metrics: Metrics, facts: BuildFacts, readModel: Pick<ReadModelReader, 'get'>) {
  new Gauge({
    name: 'matchlog_build_info',
    help: 'Always 1; its labels say what runs: matchlog version, Node version, event store and read model engines',
    labelNames: ['version', 'node', 'engine', 'read_model'] as const,
    registers: [metrics.registry],
  }).set({ version: facts.version, node: process.versions.node, engine: facts.engine, read_model: facts.readModel }, 1);
  scrapedGauge(metrics, 'matchlog_log_entries', 'Entries in the transparency log (/api/log), as its projection last committed them', [], async () => [
    [{}, (await readTreeHead(readModel)).size],
  ]);
}
