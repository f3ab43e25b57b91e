import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in
 * percent. Uploads leave much short-lived garbage that lives just long enough to be promoted
 * (a request waits for its fsync); collecting it is cheap, so V8 by default lets the heap
 * grow to 4× the live size (27 MB live, ~125 MB heap under replaces). 2× keeps the server
 * near 200 MB under changed replaces at about the same throughput (docs/performance.md,
 * sections 21 and 29).
 */
export const HEAP_GROWTH_PERCENT = 100;

/**
 * Sets V8's heap growing factor for this process, unless node was started with its own
 * --heap-growing-percent (0 there means V8's own dynamic factor). Returns whether it set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
  return true;
}
