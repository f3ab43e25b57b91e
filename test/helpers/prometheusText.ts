/** One metric family of the Prometheus text format (version 0.0.4). */
export interface MetricFamily {
  type: string;
  help: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', ''];

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let match = LABEL.exec(text); match !== null; match = LABEL.exec(text)) {
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    consumed = LABEL.lastIndex;
  }
  if (consumed !== text.length) throw new Error(`malformed labels in "${line}"`);
  return labels;
}

/**
 * Parses the Prometheus text exposition format strictly: every sample must belong to a family
 * declared by # TYPE, values must be numbers (or NaN, +Inf, -Inf). Throws on anything else.
 */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const family = families.get(meta[2]!) ?? { type: 'untyped', help: '', samples: [] };
      if (meta[1] === 'HELP') family.help = meta[3]!;
      else family.type = meta[3]!;
      families.set(meta[2]!, family);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`malformed sample "${line}"`);
    const name = sample[1]!;
    // Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any case (prom-client writes "Nan").
    const value = Number(sample[3]!.replace(/^(\+|-)?inf$/i, '$1Infinity'));
    if (Number.isNaN(value) && sample[3]!.toLowerCase() !== 'nan') throw new Error(`malformed value in "${line}"`);
    const familyName = SUFFIXES.map((suffix) => (name.endsWith(suffix) ? name.slice(0, name.length - suffix.length) : null)).find(
      (base) => base !== null && families.has(base),
    );
    if (familyName === undefined || familyName === null) throw new Error(`sample "${name}" has no # TYPE`);
    families.get(familyName)!.samples.push({ name, labels: parseLabels(sample[2] ?? '', line), value });
  }
  return families;
}

/** The value of the sample called `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) return sample.value;
    }
  }
  return 0;
}
