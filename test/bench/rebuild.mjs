#!/usr/bin/env node
// Rebuild benchmark: how fast `matchlog rebuild` replays a log of N generated matches into a
// fresh copy of every read model and switches to it, compared with reading the same log
// without projecting it (the baseline, same run). Usage: npm run bench:rebuild [-- --matches 10000] [--smoke]
// (--smoke: at most 20 matches, nothing checked; npm test runs it so it cannot rot.)
import { parseArgs } from 'node:util';
import { measureLiveRebuild, measureRebuild } from './rebuildRates.mjs';

// --live: matches live-scored (135 uploads each, deltas) instead of created once.
const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '10000' },
    live: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});
const count = values.smoke ? Math.min(20, Number(values.matches)) : Number(values.matches);
const measure = values.live ? measureLiveRebuild : measureRebuild;
// --json: the rates as JSON on stdout, progress on stderr (npm run bench runs this in its own process).
const { baseline, rows } = await measure(count, values.json ? (line) => console.error(line) : console.log, values.smoke ? 4 : 40);
if (values.json) {
  console.log(JSON.stringify({ baseline, rows }));
  process.exit(0);
}
console.log(`\n${count} ${values.live ? 'live-scored ' : ''}matches, node ${process.version}\n`);
console.log('| pass | events | seconds | events/s | the log read between its runs, events/s | vs reading the log |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(`| ${baseline.name} (median of all) | ${baseline.events} | ${baseline.seconds.toFixed(2)} | ${baseline.rate.toFixed(0)} | | 1.000 |`);
for (const r of rows)
  console.log(`| ${r.name} | ${r.events} | ${r.seconds.toFixed(2)} | ${r.rate.toFixed(0)} | ${r.baselineRate.toFixed(0)} | ${r.ratio.toFixed(3)} |`);
