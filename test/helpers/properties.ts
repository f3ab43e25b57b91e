import assert from 'node:assert';
import { same } from 'tcompare';

/**
 * How many cases a property runs. Every `fc.assert` takes its count from here, so one variable
 * scales them all: PROPERTY_RUNS=full (the default: `npm test`, CI) runs each property's full
 * count; PROPERTY_RUNS=quick (`npm run test:quick`) a tenth of it, at least 10.
 */
export function numRuns(full: number): number {
  const mode = process.env.PROPERTY_RUNS ?? 'full';
  if (mode === 'full') return full;
  if (mode === 'quick') return Math.max(10, Math.ceil(full / 10));
  throw new Error(`PROPERTY_RUNS is "${mode}": set it to quick or full`);
}

/**
 * Checks for a property's predicate: each throws on a mismatch (where tap's `t.same` only records
 * a failure and goes on), so fast-check sees the case fail, shrinks it and prints its seed and
 * path. `same` is tap's own deep equivalence (tcompare's), `equal` is `===`.
 */
export const holds = {
  same(found: unknown, wanted: unknown, message = 'should be equivalent'): void {
    const { match, diff } = same(found, wanted);
    if (!match) throw new Error(`${message}\n${diff}`);
  },
  equal(found: unknown, wanted: unknown, message?: string): void {
    assert.strictEqual(found, wanted, message);
  },
};
