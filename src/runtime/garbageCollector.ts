import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in
 * percent. Uploads leave much short-lived garbage that lives just long enough to be promoted
 * (a request waits for its fsync); collecting it is cheap, so V8 by default lets the heap
 * grow to 4× the live size (27 MB live, ~125 MB heap under replaces). 1.5× keeps the server
 * ~8 MB lower again than 2× under creates and synced uploads, at the same throughput: a full
 * collection of ~33 MB live takes ~4 ms of the main thread, the marking runs beside it
 * (docs/performance/steps.md, sections 21, 29 and 47).
 */
export const HEAP_GROWTH_PERCENT = 50;

/**
 * V8 flags the server sets for itself, each unless node was started with its own spelling of it.
 *
 * Allocation-site pretenuring is off. V8 watches how long the objects of each object literal
 * live, and once most outlive a young collection it allocates that literal's later objects
 * straight in the old generation. Here such objects are small and short-lived (cache entries,
 * summaries: they live while an upload waits for its fsync), but they point at an 85 KB parsed body.
 * Made old, each one kept its young body alive until the next full collection: whole bodies
 * were promoted, the old generation filled, and full collections came ten times as often. It
 * happened in some runs and not in others, after whatever literal V8 had judged long-lived
 * (docs/performance/steps.md, sections 34 and 43).
 */
const FLAGS = [
  { given: /^--heap[-_]growing[-_]percent\b/, set: `--heap-growing-percent=${HEAP_GROWTH_PERCENT}` },
  { given: /^--(no-?)?allocation[-_]site[-_]pretenuring\b/, set: '--no-allocation-site-pretenuring' },
];

/**
 * Sets this process's garbage-collector flags (above), keeping any that node was started with
 * (`--heap-growing-percent=0` there means V8's own dynamic factor). Returns the flags it set.
 * Call it first thing: a literal V8 has already judged long-lived stays so.
 */
export function tuneGarbageCollector(execArgv: readonly string[] = process.execArgv): string[] {
  const set = FLAGS.filter(({ given }) => !execArgv.some((arg) => given.test(arg))).map((flag) => flag.set);
  for (const flag of set) setFlagsFromString(flag);
  return set;
}
