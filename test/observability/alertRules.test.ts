import { readFileSync } from 'node:fs';
import t from 'tap';
import { createMetrics, WRITE_OUTCOMES } from '../../src/observability/metrics.js';
import { parsePrometheusText } from '../helpers/prometheusText.js';
import { watchProjections } from '../../src/observability/projectionMetrics.js';
import { startTestApp } from '../helpers/testApp.js';

const docs = (file: string) => readFileSync(new URL(`../../docs/operations/${file}`, import.meta.url), 'utf8');
/** Metric names a text refers to: ours (matchlog_) and Node's (nodejs_, process_). */
const referenced = (text: string) => new Set([...text.matchAll(/\b(?:matchlog|nodejs|process)_[a-z0-9_]+/g)].map((match) => match[0]));

t.test('the alert rules and the dashboard use only metrics the service exposes', async (t) => {
  const metrics = createMetrics();
  const { app } = await startTestApp(t, {}, { observability: { metrics, tracing: null } });
  await app.inject({ method: 'GET', url: '/healthz' });
  const families = parsePrometheusText(await metrics.registry.metrics());
  const exposed = new Set([...families].flatMap(([name, family]) => [name, ...family.samples.map((sample) => sample.name)]));
  // An EventStoreDB log's positions are bytes: its lag metric is matchlog_projection_lag_bytes.
  const esdb = createMetrics();
  watchProjections(esdb, { eventStore: { positionUnit: 'byte', readAll: async () => [] }, projectionStatus: async () => [] });
  for (const name of parsePrometheusText(await esdb.registry.metrics()).keys()) exposed.add(name);
  // Histograms' series exist once observed; their names follow from the family's.
  for (const [name, family] of families) if (family.type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(`${name}${suffix}`);

  const alerts = docs('alerts.yml');
  t.same(
    [...referenced(alerts)].filter((name) => !exposed.has(name)),
    [],
    'alerts.yml',
  );
  for (const alert of ['MatchlogProjectionStalled', 'MatchlogHigh5xxRate', 'MatchlogDiskAlmostFull', 'MatchlogFsyncSlow', 'MatchlogNotReady'])
    t.match(alerts, `alert: ${alert}\n`);
  const dashboard = JSON.parse(docs('dashboard.json')) as { panels: { targets: { expr: string }[] }[] };
  const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)).join('\n');
  t.same(
    [...referenced(exprs)].filter((name) => !exposed.has(name)),
    [],
    'dashboard.json',
  );
});

/** The unit a metric name ends in (Prometheus naming): what one axis of a panel may show. */
const unitOf = (name: string) =>
  /_(seconds|bytes|entries|events|info|total|ready|open|checkpoint|appends|failing)(?:_bucket|_sum|_count)?$/.exec(name)?.[1] ?? name;

t.test('no dashboard panel mixes units on one axis: each panel draws metrics of one unit', async (t) => {
  const dashboard = JSON.parse(docs('dashboard.json')) as { panels: { title: string; targets: { expr: string }[] }[] };
  const mixed = dashboard.panels
    .map((panel) => ({ title: panel.title, units: [...new Set(panel.targets.flatMap((target) => [...referenced(target.expr)].map(unitOf)))] }))
    .filter(({ units }) => units.length > 1);
  t.same(mixed, [], 'panels whose queries end in different units');
});

t.test('every known write outcome, 507 among them, is a series at 0 before its first increment, so MatchlogWritesRefusedDiskFull sees the first', async (t) => {
  const families = parsePrometheusText(await createMetrics().registry.metrics());
  // sampleValue answers 0 for a missing series too: the series themselves are compared.
  const series = new Map(families.get('matchlog_writes_total')?.samples.map((sample) => [sample.labels.outcome, sample.value]));
  t.same(Object.fromEntries(series), Object.fromEntries(WRITE_OUTCOMES.map((outcome) => [outcome, 0])));
  t.match(docs('alerts.yml'), /increase\(matchlog_writes_total\{outcome="507"\}\[5m\]\) > 0\n\s+or \(matchlog_writes_total\{outcome="507"\} > 0 unless/);
});
