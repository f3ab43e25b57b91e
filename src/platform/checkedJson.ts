import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Parsed JSON (a file matchlog wrote, a server's answer) as `schema` types it, checked; when it
 * is not that, throws `fail(problem)`, the problem naming the first member that is not.
 */
export function checkedJson<S extends TSchema>(schema: S, value: unknown, fail: (problem: string) => Error): Static<S> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  throw fail(`${first?.path || 'the value'} ${first?.message ?? 'is not as expected'}`);
}
