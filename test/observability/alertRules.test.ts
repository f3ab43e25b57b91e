import { readFileSync } from 'node:fs';
import t from 'tap';
import { createMetrics } from '../../src/observability/metrics.js';
import { parsePrometheusText } from '../helpers/prometheusText.js';
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
